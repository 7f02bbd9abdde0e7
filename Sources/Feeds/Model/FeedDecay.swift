#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The forgetting curve, the same arithmetic as the core `DecayModel`, over `MemoryFacts`.
///
/// Score is `0.5^(age / halfLife)` from the last reinforcement; each use stretches the half-life by
/// `reinforcementFactor` (up to `maxReinforcements` uses); pinned memories never fade. A memory leaves
/// search at the age `a` where `a = 365 days × score(a)`. A test keeps this in step with `DecayModel`.
public struct FeedDecay: Sendable, Equatable {
    /// Half-life in days of an unused memory, per kind.
    public var halfLifeDays: [MemoryKind: Double]
    /// How much each use stretches the half-life.
    public var reinforcementFactor: Double
    /// Uses beyond this count no longer stretch the half-life.
    public var maxReinforcements: Int

    /// The defaults: tasks fade fastest, quotes slowest.
    public static let standard = FeedDecay(
        halfLifeDays: [.note: 30, .idea: 45, .task: 14, .quote: 120, .learning: 60],
        reinforcementFactor: 1.8, maxReinforcements: 8)

    /// Creates a model.
    public init(halfLifeDays: [MemoryKind: Double], reinforcementFactor: Double, maxReinforcements: Int) {
        self.halfLifeDays = halfLifeDays
        self.reinforcementFactor = reinforcementFactor
        self.maxReinforcements = maxReinforcements
    }

    static let day: Double = 86_400
    static let year: Double = 365 * 86_400

    /// The effective half-life in seconds.
    public func halfLife(of m: MemoryFacts) -> Double {
        let base = halfLifeDays[m.kind] ?? 30
        return max(base, 0.01) * Self.day * pow(reinforcementFactor, Double(min(max(m.useCount, 0), maxReinforcements)))
    }

    /// The decay score in (0, 1] at `now`: 1 when just reinforced or pinned.
    public func score(of m: MemoryFacts, at now: Double) -> Double {
        if m.pinned { return 1 }
        let age = max(0, now - m.lastReinforced)
        return max(pow(0.5, age / halfLife(of: m)), Double.leastNonzeroMagnitude)
    }

    /// When the memory leaves the search index, or nil if it never does (pinned).
    public func expiry(of m: MemoryFacts) -> Double? {
        if m.pinned { return nil }
        let h = halfLife(of: m)
        var lo = 0.0, hi = Self.year
        for _ in 0..<64 {
            let mid = (lo + hi) / 2
            if mid - Self.year * pow(0.5, mid / h) < 0 { lo = mid } else { hi = mid }
        }
        return m.lastReinforced + (lo + hi) / 2
    }

    /// Whether the memory has faded out of search at `now`.
    ///
    /// `a − year·0.5^(a/h)` rises with the age `a` and is zero at the expiry age, so one power tells what
    /// the 64-step search of `expiry(of:)` would (bars ask this for every memory, every few seconds).
    public func isExpired(_ m: MemoryFacts, at now: Double) -> Bool {
        if m.pinned { return false }
        let age = now - m.lastReinforced
        return age > 0 && age - Self.year * pow(0.5, age / halfLife(of: m)) >= 0
    }
}
