import Foundation

/// How memories fade: a forgetting curve per type, stretched by each use.
///
/// A memory's score is `0.5^(age / halfLife)` where age counts from its last reinforcement and the
/// half-life grows by `reinforcementFactor` with every use (as spaced repetition lengthens intervals).
/// Its index expiry follows the rule "last reinforcement + score × 365 days", taken at the moment it
/// becomes true: the age `a` with `a = 365 d × score(a)`. Pinned memories never fade.
public struct DecayModel: Sendable, Equatable {
    /// Half-life in days of an unused memory, per type.
    public var halfLifeDays: [MemoryType: Double]
    /// How much each use stretches the half-life.
    public var reinforcementFactor: Double
    /// Uses beyond this count no longer stretch the half-life.
    public var maxReinforcements: Int

    /// The defaults: tasks fade fastest, quotes slowest.
    public static let standard = DecayModel(
        halfLifeDays: [.note: 30, .idea: 45, .task: 14, .quote: 120, .learning: 60],
        reinforcementFactor: 1.8, maxReinforcements: 8)

    /// Creates a model.
    public init(halfLifeDays: [MemoryType: Double], reinforcementFactor: Double, maxReinforcements: Int) {
        self.halfLifeDays = halfLifeDays
        self.reinforcementFactor = reinforcementFactor
        self.maxReinforcements = maxReinforcements
    }

    static let day: Double = 86_400
    static let year: Double = 365 * 86_400

    /// The effective half-life of `memory`, in seconds.
    public func halfLife(of memory: Memory) -> Double {
        let base = halfLifeDays[memory.type] ?? 30
        return max(base, 0.01) * Self.day * pow(reinforcementFactor, Double(min(max(memory.useCount, 0), maxReinforcements)))
    }

    /// The decay score in (0, 1] at `now`: 1 when just reinforced or pinned.
    public func score(of memory: Memory, at now: Date) -> Double {
        if memory.pinned { return 1 }
        let age = max(0, now.timeIntervalSince(memory.lastReinforced))
        return max(pow(0.5, age / halfLife(of: memory)), Double.leastNonzeroMagnitude)
    }

    /// When `memory` leaves the search index, or nil if it never does (pinned).
    public func expiry(of memory: Memory) -> Date? {
        if memory.pinned { return nil }
        let h = halfLife(of: memory)
        // f(a) = a − year·0.5^(a/h) rises from −year to > 0 on [0, year]: bisect its root.
        var lo = 0.0, hi = Self.year
        for _ in 0..<64 {
            let mid = (lo + hi) / 2
            if mid - Self.year * pow(0.5, mid / h) < 0 { lo = mid } else { hi = mid }
        }
        return memory.lastReinforced.addingTimeInterval((lo + hi) / 2)
    }

    /// Whether `memory` has faded out of search at `now`.
    public func isExpired(_ memory: Memory, at now: Date) -> Bool {
        expiry(of: memory).map { $0 <= now } ?? false
    }

    /// Days left before `memory` fades from search (negative once it has), or nil if pinned.
    public func daysLeft(_ memory: Memory, at now: Date) -> Double? {
        expiry(of: memory).map { $0.timeIntervalSince(now) / Self.day }
    }
}
