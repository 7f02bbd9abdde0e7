import Foundation

/// The user's running Syncthing as Engram uses it: the one folder Engram shares, the devices it is shared
/// with, and Syncthing's view of them.
public struct Syncthing: Sendable {
    /// The folder id Engram gives its folder (an existing folder at the same path keeps its own id).
    public static let folderID = "engram"
    /// Set on the folder explicitly: a folder created without it got `maxConflicts=0`, and then the losing side of a
    /// conflict vanished without a copy. Engram's own files never conflict (each device writes only its own).
    public static let maxConflicts = 10
    /// Seconds Syncthing's watcher gathers changes before it scans (its default, 10, comes on top of every capture's
    /// way to the other machine; Engram's writes are small appends, so a short wait costs little).
    public static let watcherDelaySeconds = 1

    /// How calls reach Syncthing.
    public let transport: any SyncthingTransport

    /// Engram's view of the Syncthing that `transport` reaches.
    public init(transport: any SyncthingTransport) { self.transport = transport }

    /// What `setUp` did.
    public struct Setup: Sendable, Equatable {
        /// This device's Syncthing id, for `engram sync add-device` on the other machines.
        public var deviceID: String
        /// The Syncthing folder id used.
        public var folderID: String
        /// Whether the folder was new.
        public var created: Bool
        /// The folder's file versioning type ("" when off): versioning keeps copies of replaced files, forgotten text included.
        public var versioning: String
        /// The folder's ignore patterns (Engram adds none).
        public var ignores: [String]
    }

    /// A peer as Syncthing sees it.
    public struct Peer: Sendable, Equatable {
        public var deviceID: String
        public var name: String
        public var connected: Bool
        /// When Syncthing last saw it, as Syncthing wrote it (RFC 3339); nil when never.
        public var lastSeen: String?
        /// How much of the folder the peer has, in percent; nil when unknown.
        public var completion: Double?
    }

    /// Syncthing's view of Engram's folder.
    public struct View: Sendable, Equatable {
        public var deviceID: String
        public var folderID: String?
        /// `idle`, `scanning`, `syncing`, … (empty when the folder is not in Syncthing).
        public var state: String
        /// Files this device still needs from the others.
        public var needItems: Int
        public var peers: [Peer]
    }

    /// This device's Syncthing id.
    public func deviceID() throws -> String {
        guard let id = try object("GET", "/rest/system/status")?["myID"] as? String else {
            throw EngramError.io("Syncthing did not say its device id (/rest/system/status)")
        }
        return id
    }

    /// Creates or updates the send-receive folder at `path` (the `[sync] folder`) with `maxConflicts` and the watcher set.
    public func setUp(path: String) throws -> Setup {
        let me = try deviceID()
        var folder = try engramFolder(path: path) ?? [:]
        let created = folder.isEmpty
        let id = folder["id"] as? String ?? Self.folderID
        folder["id"] = id
        if created { folder["label"] = "Engram" }
        folder["path"] = path
        folder["type"] = "sendreceive"
        folder["maxConflicts"] = Self.maxConflicts
        folder["fsWatcherEnabled"] = true
        folder["fsWatcherDelayS"] = Self.watcherDelaySeconds
        folder["paused"] = false
        folder["devices"] = Self.adding(me, to: folder["devices"])
        try expect(send("PUT", "/rest/config/folders/" + Self.escaped(id), body: folder), "set up the folder")
        let versioning = (folder["versioning"] as? [String: Any])?["type"] as? String ?? ""
        let ignores = (try? object("GET", "/rest/db/ignores?folder=" + Self.escaped(id)))?["ignore"] as? [String] ?? []
        return Setup(deviceID: me, folderID: id, created: created, versioning: versioning, ignores: ignores)
    }

    /// Adds the device `id` (found by its address, `dynamic`) and shares Engram's folder at `path` with it.
    public func addDevice(_ id: String, name: String?, path: String) throws {
        guard var folder = try engramFolder(path: path), let folderID = folder["id"] as? String else {
            throw EngramError.config("Syncthing has no Engram folder yet: run `engram sync setup` first")
        }
        var device = (try object("GET", "/rest/config/devices/" + Self.escaped(id))) ?? [:]
        if device.isEmpty { device = ["deviceID": id, "addresses": ["dynamic"]] }
        if let name { device["name"] = name }
        let added = try send("PUT", "/rest/config/devices/" + Self.escaped(id), body: device)
        if added.status == 400 || added.status == 404 {
            throw EngramError.invalidInput("Syncthing did not take the device id \(id): \(String(decoding: added.body, as: UTF8.self).prefix(200))")
        }
        try expect(added, "add the device")
        folder["devices"] = Self.adding(id, to: folder["devices"])
        try expect(send("PUT", "/rest/config/folders/" + Self.escaped(folderID), body: folder), "share the folder")
    }

    /// Syncthing's view of Engram's folder at `path` and of the devices it is shared with.
    public func view(path: String) throws -> View {
        let me = try deviceID()
        guard let folder = try engramFolder(path: path), let folderID = folder["id"] as? String else {
            return View(deviceID: me, folderID: nil, state: "", needItems: 0, peers: [])
        }
        let status = try object("GET", "/rest/db/status?folder=" + Self.escaped(folderID)) ?? [:]
        let connections = (try object("GET", "/rest/system/connections")?["connections"] as? [String: Any]) ?? [:]
        let stats = try object("GET", "/rest/stats/device") ?? [:]
        let devices = (try array("GET", "/rest/config/devices")) ?? []
        var names: [String: String] = [:]
        for d in devices { if let id = d["deviceID"] as? String { names[id] = d["name"] as? String ?? "" } }
        let shared = ((folder["devices"] as? [[String: Any]]) ?? []).compactMap { $0["deviceID"] as? String }.filter { $0 != me }
        let peers = try shared.sorted().map { id -> Peer in
            let seen = (stats[id] as? [String: Any])?["lastSeen"] as? String
            let completion = try object("GET", "/rest/db/completion?folder=\(Self.escaped(folderID))&device=\(Self.escaped(id))")?["completion"] as? Double
            return Peer(deviceID: id, name: names[id] ?? "", connected: (connections[id] as? [String: Any])?["connected"] as? Bool ?? false,
                        lastSeen: seen.flatMap { $0.hasPrefix("1970-") || $0.hasPrefix("0001-") ? nil : $0 }, completion: completion)
        }
        return View(deviceID: me, folderID: folderID, state: status["state"] as? String ?? "",
                    needItems: (status["needTotalItems"] as? Int) ?? 0, peers: peers)
    }

    /// A time as Syncthing writes it (RFC 3339, often with nanoseconds), or nil.
    public static func date(_ text: String) -> Date? {
        var s = text
        if let dot = s.firstIndex(of: "."), let end = s[dot...].firstIndex(where: { $0 == "Z" || $0 == "+" || $0 == "-" }) {
            s.removeSubrange(dot..<end)
        }
        return ISO8601DateFormatter().date(from: s)
    }

    /// Engram's folder: the one at `path`, else the one with Engram's id.
    func engramFolder(path: String) throws -> [String: Any]? {
        let folders = try array("GET", "/rest/config/folders") ?? []
        let wanted = Self.standard(path)
        return folders.first { Self.standard($0["path"] as? String ?? "") == wanted }
            ?? folders.first { $0["id"] as? String == Self.folderID }
    }

    static func standard(_ path: String) -> String {
        var p = (path as NSString).expandingTildeInPath
        while p.count > 1 && p.hasSuffix("/") { p.removeLast() }
        return p
    }

    /// A folder's device list with `id` in it.
    static func adding(_ id: String, to devices: Any?) -> [[String: Any]] {
        var list = devices as? [[String: Any]] ?? []
        if !list.contains(where: { $0["deviceID"] as? String == id }) { list.append(["deviceID": id]) }
        return list
    }

    static func escaped(_ s: String) -> String {
        s.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-_.~"))) ?? s
    }

    func send(_ method: String, _ path: String, body: [String: Any]) throws -> (status: Int, body: Data) {
        try transport.send(method, path, body: try JSONSerialization.data(withJSONObject: body))
    }

    func expect(_ reply: (status: Int, body: Data), _ what: String) throws {
        guard (200..<300).contains(reply.status) else {
            throw EngramError.io("Syncthing could not \(what) (HTTP \(reply.status)): \(String(decoding: reply.body, as: UTF8.self).prefix(300))")
        }
    }

    /// A JSON object answer; nil for 404.
    func object(_ method: String, _ path: String) throws -> [String: Any]? {
        try json(method, path) as? [String: Any]
    }

    /// A JSON array-of-objects answer; nil for 404.
    func array(_ method: String, _ path: String) throws -> [[String: Any]]? {
        try json(method, path) as? [[String: Any]]
    }

    func json(_ method: String, _ path: String) throws -> Any? {
        let reply = try transport.send(method, path, body: nil)
        if reply.status == 404 { return nil }
        try expect(reply, "answer \(method) \(path.split(separator: "?")[0])")
        return try? JSONSerialization.jsonObject(with: reply.body)
    }
}
