/// Counts that describe the collection at a moment; the same numbers as `engram stats`.
public struct FeedStats: Sendable, Equatable {
    public var total = 0
    public var today = 0
    public var thisWeek = 0
    public var topTag: String?
    public var topTagCount = 0
    public var connections = 0
    /// Consecutive days with at least one capture, ending today (or yesterday if nothing yet today).
    public var streakDays = 0
    /// Memories per type, every type present (0 when none).
    public var perType: [MemoryKind: Int] = [:]
    /// Memories that will fade from search within 7 days.
    public var expiringSoon = 0
    /// Memories already faded from search (still in the store).
    public var expired = 0
    public var pinned = 0
    public var curricula = 0
    public var topics = 0
    public var topicsDone = 0

    /// Empty counts.
    public init() {}
}
