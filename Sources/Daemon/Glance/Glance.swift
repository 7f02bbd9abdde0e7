import EngramCore
import Foundation

/// The state widgets and scripts read from `org.engram.Engram1`'s properties, computed off the bus thread
/// so reading a property never wakes anything heavy.
public struct Glance: Sendable, Equatable {
    /// Memories in the store.
    public var memoryCount: UInt32 = 0
    /// Memories captured since local midnight.
    public var todayCount: UInt32 = 0
    /// Consecutive days with a capture, ending today (or yesterday).
    public var streakDays: UInt32 = 0
    /// The active context, or "" when everything is shown.
    public var activeContext = ""
    /// The active session as a JSON object, or "" when none runs.
    public var activeSession = ""
    /// Store changes waiting to be indexed.
    public var pendingChanges: UInt32 = 0
    /// The last store change the index holds; it grows with every indexed change.
    public var indexedChange: UInt64 = 0
    /// Whether push-to-talk (`engram listen`) is recording now.
    public var listening = false

    /// Creates an empty glance.
    public init() {}

    /// The property names whose values differ between two glances, in table order.
    func changedProperties(from old: Glance) -> [String] {
        var names: [String] = []
        if memoryCount != old.memoryCount { names.append("MemoryCount") }
        if todayCount != old.todayCount { names.append("TodayCount") }
        if streakDays != old.streakDays { names.append("StreakDays") }
        if activeContext != old.activeContext { names.append("ActiveContext") }
        if activeSession != old.activeSession { names.append("ActiveSession") }
        if pendingChanges != old.pendingChanges { names.append("PendingChanges") }
        if indexedChange != old.indexedChange { names.append("IndexedChange") }
        if listening != old.listening { names.append("Listening") }
        return names
    }

    /// Reads the glance from the store (a few indexed queries); `indexedSeq` is the last change the index holds.
    static func read(from store: Store, indexedSeq: Int64, paths: EngramPaths? = nil) throws -> Glance {
        let counts = try store.glanceCounts(now: store.clock())
        var g = Glance()
        g.memoryCount = UInt32(clamping: counts.total)
        g.todayCount = UInt32(clamping: counts.today)
        g.streakDays = UInt32(clamping: counts.streakDays)
        g.activeContext = try store.activeContext() ?? ""
        g.activeSession = try store.activeSession().map(sessionJSON) ?? ""
        g.pendingChanges = UInt32(clamping: try store.pendingOutboxCount(after: indexedSeq))
        g.indexedChange = UInt64(max(0, indexedSeq))
        g.listening = paths.map { Listening.listener($0) != nil } ?? false
        return g
    }

    /// The session as the `ActiveSession` property shows it (keys sorted, dates ISO 8601 UTC).
    ///
    /// `elapsed_seconds` counts up to `resumed` only; a running session's clients add the time since `resumed`.
    static func sessionJSON(_ s: Session) -> String {
        var object: [String: Any] = [
            "id": s.id, "kind": s.kind.rawValue, "title": s.title, "state": s.state.rawValue,
            "started": ISODate.format(s.started), "elapsed_seconds": (s.accumulatedSeconds * 10).rounded() / 10,
            "progress_done": s.progressDone, "progress_total": s.progressTotal,
        ]
        object["resumed"] = s.resumed.map(ISODate.format) ?? NSNull()
        object["curriculum"] = s.curriculumID ?? NSNull()
        object["topic"] = s.topicID ?? NSNull()
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return ""
        }
        return String(decoding: data, as: UTF8.self)
    }
}
