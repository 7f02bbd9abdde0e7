#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A memory as the forgetting curve sees it: its type, uses, pin and last reinforcement.
public protocol Fading {
    /// The memory's type, which sets its base half-life.
    var type: MemoryType { get }
    /// How many times it was used; each use stretches the half-life.
    var useCount: Int { get }
    /// Pinned memories never fade.
    var pinned: Bool { get }
    /// The last use (or creation), in seconds since 1970.
    var lastReinforcedInstant: Double { get }
}

/// How memories fade: a forgetting curve per type, stretched by each use.
///
/// A memory's score is `0.5^(age / halfLife)` where age counts from its last reinforcement and the
/// half-life grows by `reinforcementFactor` with every use (as spaced repetition lengthens intervals).
/// Its index expiry follows the rule "last reinforcement + score × 365 days", taken at the moment it
/// becomes true: the age `a` with `a = 365 d × score(a)`. Pinned memories never fade. Instants are
/// seconds since 1970.
public struct DecayModel: Sendable, Equatable {
    /// Half-life in days of an unused memory, per type.
    public var halfLifeDays: [MemoryType: Double] { didSet { expiryAges = Self.expiryAges(self) } }
    /// How much each use stretches the half-life.
    public var reinforcementFactor: Double { didSet { expiryAges = Self.expiryAges(self) } }
    /// Uses beyond this count no longer stretch the half-life.
    public var maxReinforcements: Int { didSet { expiryAges = Self.expiryAges(self) } }

    /// Seconds from the last reinforcement to leaving search, per type and counted uses: the search of
    /// `expiry(of:)` done once per curve, so checking a memory costs no power (bars check every memory, every
    /// few seconds).
    private var expiryAges: [MemoryType: [Double]] = [:]

    /// The defaults: tasks fade fastest, quotes slowest.
    public static let standard = DecayModel(
        halfLifeDays: [.note: 30, .idea: 45, .task: 14, .quote: 120, .learning: 60],
        reinforcementFactor: 1.8, maxReinforcements: 8)

    /// Creates a model.
    public init(halfLifeDays: [MemoryType: Double], reinforcementFactor: Double, maxReinforcements: Int) {
        self.halfLifeDays = halfLifeDays
        self.reinforcementFactor = reinforcementFactor
        self.maxReinforcements = maxReinforcements
        expiryAges = Self.expiryAges(self)
    }

    /// A day, in seconds.
    public static let day: Double = 86_400
    /// The 365 days that a score of 1 buys in search.
    public static let year: Double = 365 * 86_400

    /// The effective half-life of `memory`, in seconds.
    public func halfLife(of memory: some Fading) -> Double {
        halfLife(memory.type, uses: memory.useCount)
    }

    /// The decay score in (0, 1] at `now`: 1 when just reinforced or pinned.
    public func score(of memory: some Fading, at now: Double) -> Double {
        if memory.pinned { return 1 }
        let age = max(0, now - memory.lastReinforcedInstant)
        return max(pow(0.5, age / halfLife(of: memory)), Double.leastNonzeroMagnitude)
    }

    /// How long after its last reinforcement `memory` leaves the search index, in seconds, or nil if it never does
    /// (pinned).
    public func lifetime(of memory: some Fading) -> Double? {
        memory.pinned ? nil : expiryAge(memory.type, uses: memory.useCount)
    }

    /// When `memory` leaves the search index, or nil if it never does (pinned).
    public func expiry(of memory: some Fading) -> Double? {
        lifetime(of: memory).map { memory.lastReinforcedInstant + $0 }
    }

    /// Whether `memory` has faded out of search at `now`.
    public func isExpired(_ memory: some Fading, at now: Double) -> Bool {
        expiry(of: memory).map { $0 <= now } ?? false
    }

    /// Days left before `memory` fades from search (negative once it has), or nil if pinned.
    public func daysLeft(_ memory: some Fading, at now: Double) -> Double? {
        expiry(of: memory).map { ($0 - now) / Self.day }
    }

    private func halfLife(_ type: MemoryType, uses: Int) -> Double {
        let base = halfLifeDays[type] ?? 30
        return max(base, 0.01) * Self.day * pow(reinforcementFactor, Double(min(max(uses, 0), maxReinforcements)))
    }

    /// The age at which a memory of `type` used `uses` times leaves search: from the table, or searched.
    private func expiryAge(_ type: MemoryType, uses: Int) -> Double {
        let counted = min(max(uses, 0), maxReinforcements)
        if let ages = expiryAges[type], ages.indices.contains(counted) { return ages[counted] }
        return Self.searchExpiryAge(halfLife: halfLife(type, uses: uses))
    }

    /// The root of `a − year·0.5^(a/h)`, which rises from −year to > 0 on [0, year]: bisected.
    private static func searchExpiryAge(halfLife h: Double) -> Double {
        var lo = 0.0, hi = year
        for _ in 0..<64 {
            let mid = (lo + hi) / 2
            if mid - year * pow(0.5, mid / h) < 0 { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
    }

    /// The expiry ages of every type and counted use (0 through `maxReinforcements`).
    private static func expiryAges(_ model: DecayModel) -> [MemoryType: [Double]] {
        let counts = 0...max(model.maxReinforcements, 0)
        var ages: [MemoryType: [Double]] = [:]
        for type in MemoryType.allCases {
            ages[type] = counts.map { searchExpiryAge(halfLife: model.halfLife(type, uses: $0)) }
        }
        return ages
    }
}
