#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Chooses the memory of the day: a forgetting curve, not a dice roll.
///
/// Candidates are the memories, in the active context, that had not faded from search at local midnight,
/// ranked by their decay score at midnight (pinned ones by the curve they would follow unpinned); the
/// `candidateCount` lowest — the closest to being forgotten — are kept. Each gets the weight
/// `importance × (1 − score)`, where importance grows with pinning, uses, type and links. One is drawn
/// in proportion to its weight by a weighted race seeded with the local date: the draw is the same in
/// every process all day, different from day to day.
///
/// The memories are judged as they stood at midnight: today's uses and pins are undone from the activity
/// log, so opening the memory of the day (which strengthens it) does not replace it, and memories
/// captured today wait for tomorrow. When nothing older is left, today's memories are drawn from.
public enum MemoryOfTheDay {
    /// How many of the most-faded memories take part in the draw.
    public static let candidateCount = 20

    /// The id of today's memory, or nil when there are no memories.
    static func choose(_ facts: [MemoryFacts], scope: FeedScope) throws -> String? {
        let env = scope.env
        let dayStart = env.dayStart
        let seed = "engram-motd|" + env.calendar.dayKey(env.today) + "|" + (scope.context ?? "")
        let older = facts.filter { $0.created < dayStart }
        if !older.isEmpty {
            let asOfMidnight = try rewind(older, to: dayStart, source: scope.source)
            let live = asOfMidnight.filter { $0.pinned || !env.decay.isExpired($0, at: dayStart) }
            if let id = draw(live, at: dayStart, decay: env.decay, seed: seed) { return id }
        }
        let live = facts.filter { $0.pinned || !env.decay.isExpired($0, at: env.now) }
        return draw(live, at: env.now, decay: env.decay, seed: seed)
    }

    /// The memories as they stood at `dayStart`, with today's uses and pins undone.
    static func rewind(_ facts: [MemoryFacts], to dayStart: Double, source: FeedSource) throws -> [MemoryFacts] {
        var today: [String: [ActivityFact]] = [:]
        for a in try source.activities(since: dayStart) { today[a.memoryID, default: []].append(a) }
        guard !today.isEmpty else { return facts }
        return try facts.map { m in
            guard let uses = today[m.id] else { return m }
            var old = m
            old.useCount = max(0, m.useCount - uses.filter(\.action.reinforces).count)
            if uses.filter({ $0.action == .pin }).count % 2 == 1 { old.pinned.toggle() }
            if m.lastReinforced >= dayStart {
                old.lastReinforced = max(m.created, try source.lastUse(of: m.id, before: dayStart) ?? m.created)
            }
            return old
        }
    }

    /// How much a memory matters when resurfacing: pinned, used, its type, its links.
    static func importance(_ m: MemoryFacts) -> Double {
        m.kind.importance
            * (1 + log(1 + Double(max(0, m.useCount))))
            * (1 + 0.2 * Double(min(max(0, m.links), 10)))
            * (m.pinned ? 1.5 : 1)
    }

    /// The score on the curve the memory follows when not pinned.
    static func curveScore(_ m: MemoryFacts, at t: Double, decay: FeedDecay) -> Double {
        var unpinned = m
        unpinned.pinned = false
        return decay.score(of: unpinned, at: t)
    }

    /// The winner of a weighted race among the `candidateCount` lowest-scored memories.
    ///
    /// Each candidate draws `u` in (0, 1) from a hash of the seed and its id; the smallest `-ln(u) / weight`
    /// wins, which picks each with probability proportional to its weight and barely moves when other
    /// memories come and go.
    static func draw(_ facts: [MemoryFacts], at t: Double, decay: FeedDecay, seed: String) -> String? {
        let scored = facts.map { ($0, curveScore($0, at: t, decay: decay)) }
            .sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0.id < $1.0.id }
            .prefix(candidateCount)
        var best: (key: Double, id: String)?
        for (m, score) in scored {
            let weight = importance(m) * max(1 - score, 0.001)
            let key = -log(unitHash(seed + "|" + m.id)) / weight
            if best == nil || key < best!.key || (key == best!.key && m.id < best!.id) { best = (key, m.id) }
        }
        return best?.id
    }

    /// A number in (0, 1) from `text`: FNV-1a, then the SplitMix64 finaliser.
    static func unitHash(_ text: String) -> Double {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in text.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        h = (h ^ (h >> 30)) &* 0xbf58_476d_1ce4_e5b9
        h = (h ^ (h >> 27)) &* 0x94d0_49bb_1331_11eb
        h ^= h >> 31
        return (Double(h >> 11) + 0.5) / 9_007_199_254_740_992
    }
}
