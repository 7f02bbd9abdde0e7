import Foundation
import Testing
@testable import EngramCore

/// A Syncthing REST API in memory: the config calls Engram makes, folders and devices kept as JSON objects.
final class MemorySyncthing: SyncthingTransport, @unchecked Sendable {
    let lock = NSLock()
    let me = "AAAAAAA-AAAAAAA-AAAAAAA-AAAAAAA-AAAAAAA-AAAAAAA-AAAAAAA-AAAAAAA"
    var folders: [[String: Any]] = []
    var devices: [[String: Any]] = []
    var calls: [String] = []

    func send(_ method: String, _ path: String, body: Data?) throws -> (status: Int, body: Data) {
        lock.lock(); defer { lock.unlock() }
        calls.append(method + " " + path)
        let object = body.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        func reply(_ value: Any) -> (Int, Data) { (200, try! JSONSerialization.data(withJSONObject: value)) }
        let route = String(path.split(separator: "?")[0])
        switch (method, route) {
        case ("GET", "/rest/system/status"): return reply(["myID": me])
        case ("GET", "/rest/config/folders"): return reply(folders)
        case ("GET", "/rest/config/devices"): return reply(devices)
        case ("GET", "/rest/db/ignores"): return reply(["ignore": [String]()])
        case ("GET", "/rest/db/status"): return reply(["state": "idle", "needTotalItems": 0])
        case ("GET", "/rest/db/completion"): return reply(["completion": 100.0])
        case ("GET", "/rest/system/connections"): return reply(["connections": [String: Any]()])
        case ("GET", "/rest/stats/device"): return reply([String: Any]())
        case ("GET", _) where route.hasPrefix("/rest/config/devices/"):
            let id = String(route.dropFirst("/rest/config/devices/".count))
            return devices.first { $0["deviceID"] as? String == id }.map(reply) ?? (404, Data())
        case ("PUT", _) where route.hasPrefix("/rest/config/folders/"):
            guard let object else { return (400, Data()) }
            folders.removeAll { $0["id"] as? String == object["id"] as? String }
            folders.append(object)
            return (200, Data())
        case ("PUT", _) where route.hasPrefix("/rest/config/devices/"):
            guard let object, let id = object["deviceID"] as? String, id.count >= 52 else { return (400, Data("bad id".utf8)) }
            devices.removeAll { $0["deviceID"] as? String == id }
            devices.append(object)
            return (200, Data())
        default: return (404, Data())
        }
    }
}

@Suite struct SyncthingTests {
    static let config = """
        <configuration version="35">
            <folder id="default" label="Default Folder" path="/home/u/Sync" type="sendreceive"></folder>
            <gui enabled="true" tls="false" debugging="false">
                <address>0.0.0.0:8385</address>
                <apikey>k3yK3y</apikey>
                <theme>default</theme>
            </gui>
        </configuration>
        """

    @Test func theConfigGivesTheKeyAndALoopbackAddress() throws {
        let c = try SyncthingConfig.parse(Self.config, path: "/x/config.xml")
        #expect(c.address == "127.0.0.1:8385" && c.apiKey == "k3yK3y")
        let own = try SyncthingConfig.parse(Self.config.replacingOccurrences(of: "0.0.0.0:8385", with: "127.0.0.2:9000"), path: "x")
        #expect(own.address == "127.0.0.2:9000")
    }

    @Test func aKeyIsNeverSentOffLoopbackOrOverHTTPS() {
        #expect(throws: EngramError.self) {
            try SyncthingConfig.parse(Self.config.replacingOccurrences(of: "0.0.0.0:8385", with: "192.168.1.5:8384"), path: "x")
        }
        #expect(throws: EngramError.self) {
            try SyncthingConfig.parse(Self.config.replacingOccurrences(of: #"tls="false""#, with: #"tls="true""#), path: "x")
        }
        #expect(throws: EngramError.self) {
            try SyncthingConfig.parse(Self.config.replacingOccurrences(of: "<apikey>k3yK3y</apikey>", with: ""), path: "x")
        }
    }

    @Test func theConfigIsLookedForWhereEachSyncthingVersionWritesIt() {
        let dirs = SyncthingConfig.candidates(["HOME": "/h", "XDG_STATE_HOME": "/s"])
        #expect(dirs == ["/s/syncthing/config.xml", "/h/.local/state/syncthing/config.xml", "/h/.config/syncthing/config.xml"])
        #expect(SyncthingConfig.candidates(["HOME": "/h", "STHOMEDIR": "/t"]).first == "/t/config.xml")
    }

    @Test func aMissingSyncthingSaysHowToStartIt() throws {
        let rest = SyncthingREST(config: SyncthingConfig(address: "127.0.0.1:9", apiKey: "k", path: "/x/config.xml"))
        do {
            _ = try Syncthing(transport: rest).deviceID()
            Issue.record("a closed port answered")
        } catch {
            #expect(String(describing: error).contains("systemctl --user start syncthing"))
        }
    }

    /// The real client against a one-shot HTTP server on 127.0.0.1: the key goes in the header, the body comes back.
    @Test func theRESTClientSpeaksHTTPOnLoopbackWithTheKey() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, size) } }
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &size) } }
        #expect(listen(listener, 1) == 0)
        let port = UInt16(bigEndian: addr.sin_port)
        final class Seen: @unchecked Sendable { var request = "" }
        let seen = Seen()
        let server = Thread {
            let fd = accept(listener, nil, nil)
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            seen.request = String(decoding: buffer[0..<max(0, n)], as: UTF8.self)
            let reply = "HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n{\"myID\": \"ME\"}"
            _ = reply.withCString { send(fd, $0, strlen($0), 0) }
            close(fd)
        }
        server.start()
        let rest = SyncthingREST(config: SyncthingConfig(address: "127.0.0.1:\(port)", apiKey: "s3cret", path: "x"))
        #expect(try Syncthing(transport: rest).deviceID() == "ME")
        #expect(seen.request.hasPrefix("GET /rest/system/status HTTP/1.0\r\n") && seen.request.contains("X-API-Key: s3cret\r\n"))
    }

    @Test func setUpMakesOneSendReceiveFolderWithMaxConflictsSet() throws {
        let memory = MemorySyncthing()
        let syncthing = Syncthing(transport: memory)
        let first = try syncthing.setUp(path: "/home/u/Sync/engram/")
        #expect(first.created && first.folderID == "engram" && first.deviceID == memory.me && first.versioning.isEmpty)
        let again = try syncthing.setUp(path: "/home/u/Sync/engram")
        #expect(!again.created)
        #expect(memory.folders.count == 1)
        let folder = try #require(memory.folders.first)
        #expect(folder["type"] as? String == "sendreceive" && folder["maxConflicts"] as? Int == Syncthing.maxConflicts)
        // Syncthing's watcher on, scanning a second after a change (its default wait, 10 s, would delay every capture).
        #expect(folder["fsWatcherEnabled"] as? Bool == true && folder["fsWatcherDelayS"] as? Int == 1)
        #expect((folder["devices"] as? [[String: Any]])?.compactMap { $0["deviceID"] as? String } == [memory.me])
    }

    @Test func anExistingFolderAtThePathKeepsItsIdAndVersioningIsReported() throws {
        let memory = MemorySyncthing()
        memory.folders = [["id": "abcd-1234", "path": "/home/u/Sync/engram", "type": "sendonly", "maxConflicts": 0,
                           "versioning": ["type": "simple"], "devices": [[String: Any]]()]]
        let setup = try Syncthing(transport: memory).setUp(path: "/home/u/Sync/engram")
        #expect(!setup.created && setup.folderID == "abcd-1234" && setup.versioning == "simple")
        #expect(memory.folders.first?["type"] as? String == "sendreceive")
        #expect(memory.folders.first?["maxConflicts"] as? Int == Syncthing.maxConflicts)
    }

    @Test func addDeviceSharesTheFolderAndStatusListsThePeer() throws {
        let memory = MemorySyncthing()
        let syncthing = Syncthing(transport: memory)
        let other = "BBBBBBB-BBBBBBB-BBBBBBB-BBBBBBB-BBBBBBB-BBBBBBB-BBBBBBB-BBBBBBB"
        #expect(throws: EngramError.self) { try syncthing.addDevice(other, name: "desk", path: "/s") }
        _ = try syncthing.setUp(path: "/s")
        try syncthing.addDevice(other, name: "desk", path: "/s")
        try syncthing.addDevice(other, name: nil, path: "/s")
        #expect(memory.devices.count == 1 && memory.devices.first?["name"] as? String == "desk")
        let view = try syncthing.view(path: "/s")
        #expect(view.folderID == "engram" && view.state == "idle")
        #expect(view.peers == [Syncthing.Peer(deviceID: other, name: "desk", connected: false, lastSeen: nil, completion: 100)])
    }

    @Test func syncthingTimesReadWithNanoseconds() {
        #expect(Syncthing.date("2026-11-26T17:48:01.123456789+01:00") == Date(timeIntervalSince1970: 1_795_711_681))
        #expect(Syncthing.date("2026-11-26T16:48:01Z") == Date(timeIntervalSince1970: 1_795_711_681))
    }
}
