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
/// every process all day. Yesterday's winner is passed over, so two days in a row never show the same one.
///
/// The memories are judged as they stood at midnight: today's uses and pins are undone from the activity
/// log (a memory used today stays a candidate), so opening the memory of the day, which strengthens it,
/// does not replace it, and memories captured today wait for tomorrow. When nothing older is left,
/// today's memories are drawn from.
public enum MemoryOfTheDay {
    /// How many of the most-faded memories take part in the draw.
    public static let candidateCount = 20

    /// The id of today's memory, or nil when there are no memories.
    static func choose(_ facts: [MemoryFacts], scope: FeedScope) throws -> String? {
        let env = scope.env
        let today = try ranking(facts, day: env.today, scope: scope)
        guard let best = today.first else {
            let live = facts.filter { $0.pinned || !env.decay.isExpired($0, at: env.now) }
            return draw(live, at: env.now, decay: env.decay, seed: seed(env.today, scope)).first
        }
        if today.count > 1, try ranking(facts, day: env.today - 1, scope: scope).first == best { return today[1] }
        return best
    }

    /// The id of today's memory, reading only the few memories that can take part when the source lists
    /// its fading groups (`choose(_:scope:)` over every memory otherwise, with the same result).
    static func choose(_ scope: FeedScope) throws -> String? {
        guard let groups = try scope.source.fadingGroups() else { return try choose(scope.facts(), scope: scope) }
        let env = scope.env
        let today = try ranking(groups, day: env.today, scope: scope)
        guard let best = today.first else {
            let live = try candidates(groups, at: env.now, createdBefore: nil, excluding: [], scope: scope)
            return draw(live, at: env.now, decay: env.decay, seed: seed(env.today, scope)).first
        }
        if today.count > 1, try ranking(groups, day: env.today - 1, scope: scope).first == best { return today[1] }
        return best
    }

    /// `ranking(_:day:scope:)` from the memories used since that midnight and the `candidateCount` least
    /// faded of the others.
    static func ranking(_ groups: [FadingGroup], day: Int, scope: FeedScope) throws -> [String] {
        let env = scope.env
        let midnight = env.calendar.startOfDay(day)
        guard try scope.source.hasMemory(createdBefore: midnight, context: scope.context) else { return [] }
        let used = Set(try scope.source.activities(since: midnight).map(\.memoryID))
        let touched = try scope.source.memoryFacts(ids: used.sorted())
            .filter { $0.created < midnight && (scope.context == nil || $0.context == scope.context) }
        let (asOfMidnight, _) = try rewind(touched, to: midnight, source: scope.source)
        let others = try candidates(groups, at: midnight, createdBefore: midnight, excluding: used, scope: scope)
        return draw(asOfMidnight + others, at: midnight, decay: env.decay, seed: seed(day, scope))
    }

    /// The `candidateCount` lowest-scored (then lowest id) memories at `t` that have not faded from search
    /// (or are pinned), leaving out `excluding`, with their links counted.
    ///
    /// Within a group the curve score only grows with the last reinforcement, so each group is read oldest
    /// first, from just before the age where its memories leave search up to `t`, and only until its scores
    /// pass the worst one kept (ties read on, as ids break them, from the next instant): what is left unread
    /// cannot be among the lowest.
    static func candidates(_ groups: [FadingGroup], at t: Double, createdBefore: Double?, excluding: Set<String>,
                           scope: FeedScope) throws -> [MemoryFacts] {
        let decay = scope.env.decay
        var kept: [(score: Double, facts: MemoryFacts)] = []
        func ahead(_ a: (score: Double, facts: MemoryFacts), _ b: (score: Double, facts: MemoryFacts)) -> Bool {
            a.score != b.score ? a.score < b.score : a.facts.id < b.facts.id
        }
        /// Keeps `m` if it is among the lowest so far; otherwise says whether its score was higher or tied.
        func keep(_ m: MemoryFacts) -> Kept {
            if excluding.contains(m.id) || createdBefore.map({ m.created >= $0 }) == true { return .skipped }
            if !m.pinned && decay.isExpired(m, at: t) { return .skipped }
            let entry = (score: curveScore(m, at: t, decay: decay), facts: m)
            if kept.count == candidateCount, let worst = kept.last {
                if entry.score > worst.score { return .worse }
                if !ahead(entry, worst) { return .tieLost }
                kept.removeLast()
            }
            kept.insert(entry, at: kept.firstIndex { ahead(entry, $0) } ?? kept.count)
            return .kept
        }
        for g in groups {
            let sample = MemoryFacts(id: "", kind: MemoryType(storeValue: g.type), created: 0, lastReinforced: 0, useCount: g.useCount)
            let from = g.pinned != 0 ? nil : decay.expiry(of: sample).map { t - $0 - DecayModel.day }
            var after: Double?
            repeat {
                let resume = after
                after = nil
                try scope.source.scan(g, context: scope.context, createdBefore: createdBefore, from: from, before: t, after: resume) { m in
                    switch keep(m) {
                    case .kept, .skipped: return true
                    case .worse: return false
                    case .tieLost:
                        // A tie lost on id: so do the rest reinforced at the same instant; go on after them.
                        after = m.lastReinforced
                        return false
                    }
                }
            } while after != nil
        }
        // Those reinforced at `t` or later (any order) score 1: read them only when 1 could still be kept.
        if kept.count < candidateCount || kept[kept.count - 1].score > 0.999 {
            for m in try scope.source.reinforced(since: t, context: scope.context, createdBefore: createdBefore) { _ = keep(m) }
        }
        return try scope.source.memoryFacts(ids: kept.map(\.facts.id))
    }

    /// What `candidates` did with a memory it read.
    enum Kept { case kept, skipped, worse, tieLost }

    /// The two front runners of day `day`, judged as the memories stood at that day's midnight.
    static func ranking(_ facts: [MemoryFacts], day: Int, scope: FeedScope) throws -> [String] {
        let env = scope.env
        let midnight = env.calendar.startOfDay(day)
        let older = facts.filter { $0.created < midnight }
        guard !older.isEmpty else { return [] }
        let (asOfMidnight, usedSince) = try rewind(older, to: midnight, source: scope.source)
        let live = asOfMidnight.filter { $0.pinned || usedSince.contains($0.id) || !env.decay.isExpired($0, at: midnight) }
        return draw(live, at: midnight, decay: env.decay, seed: seed(day, scope))
    }

    static func seed(_ day: Int, _ scope: FeedScope) -> String {
        "engram-motd|" + scope.env.calendar.dayKey(day) + "|" + (scope.context ?? "")
    }

    /// The memories as they stood at `instant`, with later uses and pins undone, and the ids used since.
    ///
    /// A memory's earlier reinforcement is the last use logged before `instant`, or its creation when the
    /// log has none (imported history).
    static func rewind(_ facts: [MemoryFacts], to instant: Double, source: FeedSource) throws -> ([MemoryFacts], Set<String>) {
        var since: [String: [ActivityFact]] = [:]
        for a in try source.activities(since: instant) { since[a.memoryID, default: []].append(a) }
        guard !since.isEmpty else { return (facts, []) }
        let rewound = try facts.map { m in
            guard let uses = since[m.id] else { return m }
            var old = m
            old.useCount = max(0, m.useCount - uses.filter(\.action.reinforces).count)
            if uses.filter({ $0.action == .pin }).count % 2 == 1 { old.pinned.toggle() }
            if m.lastReinforced >= instant {
                old.lastReinforced = max(m.created, try source.lastUse(of: m.id, before: instant) ?? m.created)
            }
            return old
        }
        return (rewound, Set(since.keys))
    }

    /// How much a memory matters when resurfacing: pinned, used, its type, its links.
    static func importance(_ m: MemoryFacts) -> Double {
        m.kind.importance
            * (1 + log(1 + Double(max(0, m.useCount))))
            * (1 + 0.2 * Double(min(max(0, m.links), 10)))
            * (m.pinned ? 1.5 : 1)
    }

    /// The score on the curve the memory follows when not pinned.
    static func curveScore(_ m: MemoryFacts, at t: Double, decay: DecayModel) -> Double {
        var unpinned = m
        unpinned.pinned = false
        return decay.score(of: unpinned, at: t)
    }

    /// The front runners (at most two) of a weighted race among the `candidateCount` lowest-scored memories.
    ///
    /// Each candidate draws `u` in (0, 1) from a hash of the seed and its id; the smallest `-ln(u) / weight`
    /// wins, which picks each with probability proportional to its weight and barely moves when other
    /// memories come and go.
    static func draw(_ facts: [MemoryFacts], at t: Double, decay: DecayModel, seed: String) -> [String] {
        let scored = facts.map { ($0, curveScore($0, at: t, decay: decay)) }
            .sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0.id < $1.0.id }
            .prefix(candidateCount)
        let keyed = scored.map { m, score in
            (key: -log(unitHash(seed + "|" + m.id)) / (importance(m) * max(1 - score, 0.001)), id: m.id)
        }
        return keyed.sorted { $0.key != $1.key ? $0.key < $1.key : $0.id < $1.id }.prefix(2).map(\.id)
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
