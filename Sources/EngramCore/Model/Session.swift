import Foundation
import GRDB

/// A live capture or learning session, whose state machine is kept in the store.
public struct Session: Codable, Sendable, Equatable, Identifiable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "session"

    /// What the session is for.
    public enum Kind: String, Codable, Sendable { case capture, learning }

    /// Where the session is in its life.
    public enum State: String, Codable, Sendable { case running, paused, stopped, completed }

    public var id: String
    public var kind: Kind
    public var title: String
    public var curriculumID: String?
    public var topicID: String?
    public var state: State
    public var started: Date
    /// When the current running stretch began; nil while paused or ended.
    public var resumed: Date?
    /// Seconds accumulated over earlier running stretches.
    public var accumulatedSeconds: Double
    public var ended: Date?
    public var progressDone: Int
    public var progressTotal: Int
    public var updated: Date
    /// The process hosting the session (`ProcessIdentity`): for a capture, the `engram capture` taking its
    /// lines; for a learning session, the one showing its live notification. Nil when none does.
    public var host: String?
    /// The live notification shown for the session (`NotificationHandOff.encoded`), so a host taking over
    /// from one that died replaces it instead of adding a second.
    public var notification: String?

    /// Columns of the `session` table.
    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let state = Column(CodingKeys.state)
        public static let started = Column(CodingKeys.started)
        public static let kind = Column(CodingKeys.kind)
        public static let host = Column(CodingKeys.host)
    }

    /// Creates a session.
    public init(id: String, kind: Kind, title: String, curriculumID: String? = nil, topicID: String? = nil,
                state: State = .running, started: Date, resumed: Date? = nil, accumulatedSeconds: Double = 0,
                ended: Date? = nil, progressDone: Int = 0, progressTotal: Int = 0, updated: Date? = nil,
                host: String? = nil, notification: String? = nil) {
        self.id = id
        self.kind = kind
        self.title = title
        self.curriculumID = curriculumID
        self.topicID = topicID
        self.state = state
        self.started = started
        self.resumed = resumed ?? (state == .running ? started : nil)
        self.accumulatedSeconds = accumulatedSeconds
        self.ended = ended
        self.progressDone = progressDone
        self.progressTotal = progressTotal
        self.updated = updated ?? started
        self.host = host
        self.notification = notification
    }

    /// Seconds spent running, up to `now`.
    public func elapsed(at now: Date) -> Double {
        accumulatedSeconds + (resumed.map { max(0, now.timeIntervalSince($0)) } ?? 0)
    }

    /// Whether the session is still going (running or paused).
    public var isActive: Bool { state == .running || state == .paused }

    /// Whether this is a capture that ended because its process did (killed, crashed) rather than with its input.
    public var isInterrupted: Bool { kind == .capture && state == .stopped }

    /// Whether the process hosting the session still runs.
    public var hostIsAlive: Bool { host.map(ProcessIdentity.isAlive) ?? false }
}
