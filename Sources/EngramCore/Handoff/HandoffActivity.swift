import Foundation

/// What a device is doing, published in its own file of the sync folder (`devices/<id>/activity.json`) so the
/// person's other devices can offer to continue it there.
///
/// Only the device named writes the file, replacing it whole (a temporary name, then a rename), so Syncthing
/// never sees two writers and a reader never sees half a file. The sync log's reader reads `ops-<n>.jsonl`
/// segments only and leaves this file alone.
public struct HandoffActivity: Codable, Sendable, Equatable {
    /// The file's name in a device's folder.
    public static let fileName = "activity.json"
    /// The format written; a reader skips files of a newer one.
    public static let currentVersion = 1

    /// The learning session a device runs or paused last.
    public struct SessionPart: Codable, Sendable, Equatable {
        /// The session's id (the same on every device: sessions are synced).
        public var id: String
        /// The curriculum's title.
        public var curriculum: String
        /// The current topic's title, if any.
        public var topic: String?
        /// `running`, `paused` or `ended`.
        public var state: String
        /// Seconds studied as of `HandoffActivity.written`.
        public var elapsedSeconds: Double
        /// The device that continued the session, once this one handed it over.
        public var handedTo: String?

        /// Creates a session part.
        public init(id: String, curriculum: String, topic: String?, state: String, elapsedSeconds: Double, handedTo: String? = nil) {
            self.id = id
            self.curriculum = curriculum
            self.topic = topic
            self.state = state
            self.elapsedSeconds = elapsedSeconds
            self.handedTo = handedTo
        }

        /// "Swift Concurrency — Sendable".
        public var title: String { topic.map { "\(curriculum) — \($0)" } ?? curriculum }
    }

    /// The memory a device opened last.
    public struct MemoryPart: Codable, Sendable, Equatable {
        public var id: String
        public var title: String
        public var opened: Date

        /// Creates a memory part.
        public init(id: String, title: String, opened: Date) {
            self.id = id
            self.title = title
            self.opened = opened
        }
    }

    public var version = Self.currentVersion
    /// The device's sync id (its folder's name).
    public var device: String
    /// The device's name as people know it (its host name).
    public var deviceName: String
    /// When the file was written (the device's clock).
    public var written: Date
    public var session: SessionPart?
    public var memory: MemoryPart?

    /// Creates an activity.
    public init(device: String, deviceName: String, written: Date, session: SessionPart? = nil, memory: MemoryPart? = nil) {
        self.device = device
        self.deviceName = deviceName
        self.written = written
        self.session = session
        self.memory = memory
    }

    /// Seconds studied in the session as of `now` (still counting while it runs).
    public func elapsed(at now: Date) -> Double {
        guard let s = session else { return 0 }
        return s.elapsedSeconds + (s.state == "running" ? max(0, now.timeIntervalSince(written)) : 0)
    }

    /// The file's bytes.
    public func encoded() throws -> Data { try HandoffJSON.encoder.encode(self) }

    /// Reads a device's activity file; nil when it is missing, unreadable, of a newer format, names another
    /// device than the folder it is in, or holds values no Engram writes (ids that are not ids, an unknown state,
    /// a time studied that is not a number of seconds in range). Names and titles come from another machine: control
    /// characters (NUL included, which D-Bus refuses) are shown as `�` and each is cut to `maxText` characters.
    public static func read(_ path: String, device: String) -> HandoffActivity? {
        guard var a: HandoffActivity = HandoffJSON.read(path), a.version <= currentVersion, a.device == device else { return nil }
        if let s = a.session {
            guard Identifier.isValid(s.id), ["running", "paused", "ended"].contains(s.state),
                  s.elapsedSeconds.isFinite, (0...maxSeconds).contains(s.elapsedSeconds),
                  s.handedTo.map(DeviceID.isValid) ?? true else { return nil }
            a.session?.curriculum = shown(s.curriculum)
            a.session?.topic = s.topic.map(shown)
        }
        if let m = a.memory {
            guard Identifier.isValid(m.id) else { return nil }
            a.memory?.title = shown(m.title)
        }
        a.deviceName = shown(a.deviceName)
        return a
    }

    /// The longest name or title kept from another device's file.
    static let maxText = 200
    /// The most seconds a session's time may say (about 31 years; more is not a time anyone studied).
    static let maxSeconds = 1e9

    static func shown(_ text: String) -> String { SyncOperation.shown(text, maxText) }
}

/// A device's request to continue another device's session (`devices/<id>/claim.json`, written by the device
/// continuing): the origin pauses the session as of `claimed` and this device resumes it from that moment.
public struct HandoffClaim: Codable, Sendable, Equatable {
    /// The file's name in a device's folder.
    public static let fileName = "claim.json"

    public var version = HandoffActivity.currentVersion
    /// The device continuing (whose folder holds the claim).
    public var device: String
    /// The device the session is taken from.
    public var origin: String
    /// The session taken.
    public var session: String
    /// When the person chose to continue (the continuing device's clock).
    public var claimed: Date

    /// Creates a claim.
    public init(device: String, origin: String, session: String, claimed: Date) {
        self.device = device
        self.origin = origin
        self.session = session
        self.claimed = claimed
    }

    /// Reads a device's claim file; nil when missing, unreadable, not that device's, or naming an origin or a
    /// session that is not an id.
    public static func read(_ path: String, device: String) -> HandoffClaim? {
        HandoffJSON.read(path).flatMap { (c: HandoffClaim) in
            c.version <= HandoffActivity.currentVersion && c.device == device && DeviceID.isValid(c.origin)
                && Identifier.isValid(c.session) ? c : nil
        }
    }
}

/// The JSON form of the handoff files: sorted keys, dates as ISO 8601 with milliseconds.
enum HandoffJSON {
    /// The largest handoff file read (they hold a few hundred bytes).
    static let maxBytes = 64 * 1024

    /// Decodes the file at `path`; nil when it is missing, too large or not valid.
    static func read<T: Decodable>(_ path: String) -> T? {
        guard let data = SyncFiles.read(path, from: 0, limit: maxBytes + 1), data.count <= maxBytes else { return nil }
        return try? decoder.decode(T.self, from: data)
    }

    static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .prettyPrinted]
        e.dateEncodingStrategy = .custom { date, encoder in
            var c = encoder.singleValueContainer()
            try c.encode(ISO8601DateFormatter.string(from: date, timeZone: .gmt, formatOptions: options))
        }
        return e
    }()

    static let decoder: JSONDecoder = {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            let f = ISO8601DateFormatter()
            f.formatOptions = options
            guard let date = f.date(from: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an ISO 8601 date: \(text)"))
            }
            return date
        }
        return d
    }()

    static let options: ISO8601DateFormatter.Options = [.withInternetDateTime, .withFractionalSeconds]
}
