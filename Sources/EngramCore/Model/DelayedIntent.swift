import Foundation
import GRDB

/// An intent scheduled to run later (`--in 10m`, `--at 07:30`), kept in the store so a restart keeps it.
///
/// After it ran, its result may be re-alerted every `realertSeconds` (at most `realertLimit` times) until
/// someone acknowledges it: the Notifier reads `needsRealert(at:)` and calls `Store.acknowledgeDelayedIntent`.
public struct DelayedIntent: Codable, Sendable, Equatable, Identifiable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "delayedIntent"

    /// Where a delayed intent is in its life.
    public enum State: String, Codable, Sendable { case pending, done, failed, cancelled }

    public var id: String
    /// The catalog name of the intent, e.g. "DailyReview".
    public var intent: String
    /// The intent's arguments as a JSON object of strings.
    public var arguments: String
    /// The phrase it was asked with, if any.
    public var phrase: String?
    public var due: Date
    public var created: Date
    public var state: State
    public var ranAt: Date?
    /// The result sentence (or the error) once it ran.
    public var result: String?
    /// Seconds between re-alerts while unacknowledged; nil: alert once.
    public var realertSeconds: Double?
    /// How many re-alerts at most.
    public var realertLimit: Int
    /// Alerts shown so far.
    public var alertCount: Int
    public var lastAlerted: Date?
    public var acknowledged: Date?
    public var source: String?

    /// Columns of the `delayedIntent` table.
    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let due = Column(CodingKeys.due)
        public static let state = Column(CodingKeys.state)
        public static let ranAt = Column(CodingKeys.ranAt)
    }

    /// Creates a pending delayed intent.
    public init(id: String = Identifier.make(), intent: String, arguments: String = "{}", phrase: String? = nil, due: Date,
                created: Date, realertSeconds: Double? = nil, realertLimit: Int = 0, source: String? = nil) {
        self.id = id
        self.intent = intent
        self.arguments = arguments
        self.phrase = phrase
        self.due = due
        self.created = created
        self.state = .pending
        self.realertSeconds = realertSeconds
        self.realertLimit = realertLimit
        self.alertCount = 0
        self.source = source
    }

    /// Whether its notification should be shown again at `now`: it ran, nobody acknowledged it, and the interval passed.
    public func needsRealert(at now: Date) -> Bool {
        guard state == .done || state == .failed, acknowledged == nil, let every = realertSeconds, every > 0,
              alertCount <= realertLimit, let last = lastAlerted ?? ranAt else { return false }
        return alertCount < realertLimit + 1 && now.timeIntervalSince(last) >= every
    }
}
