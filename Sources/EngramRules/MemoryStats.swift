/// Counts that describe a collection at a moment: what `engram stats`, the daemon and the stats feed show.
public struct MemoryStats: Codable, Sendable, Equatable {
    public var total = 0
    public var today = 0
    public var thisWeek = 0
    public var topTag: String?
    public var topTagCount = 0
    public var connections = 0
    /// Consecutive days with at least one capture, ending today (or yesterday if nothing yet today).
    public var streakDays = 0
    /// Memories per type, by the store's type name.
    public var perType: [String: Int] = [:]
    /// Memories that will fade from search within `fadingHorizon`.
    public var expiringSoon = 0
    /// Memories already faded from search (still in the store).
    public var expired = 0
    public var pinned = 0
    public var curricula = 0
    public var topics = 0
    public var topicsDone = 0

    /// Empty counts.
    public init() {}

    /// How far ahead a memory counts as fading soon (and as due for review): 7 days, in seconds.
    public static let fadingHorizon: Double = 7 * 86_400
    /// How many local days "this week" covers, today included.
    public static let weekDays = 7
}

/// Where a memory stands on its forgetting curve, as the stats count it.
public enum FadingState: Sendable, Equatable {
    /// In search, and not fading within the horizon.
    case inSearch
    /// Fading from search within `MemoryStats.fadingHorizon`.
    case fadingSoon
    /// Faded from search (still in the store).
    case faded

    /// The state of a memory with `secondsLeft` before it leaves search (nil: pinned, never).
    public init(secondsLeft: Double?) {
        guard let left = secondsLeft else { self = .inSearch; return }
        self = left <= 0 ? .faded : left <= MemoryStats.fadingHorizon ? .fadingSoon : .inSearch
    }
}

extension DecayModel {
    /// Whether `memory` has faded at `now`, fades within `MemoryStats.fadingHorizon`, or neither.
    public func fadingState(of memory: some Fading, at now: Double) -> FadingState {
        FadingState(secondsLeft: expiry(of: memory).map { $0 - now })
    }
}
