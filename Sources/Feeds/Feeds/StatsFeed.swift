/// `stats`: counts, streak and what is fading, with the same rules as `Store.stats`.
enum StatsFeed {
    static func build(_ scope: FeedScope) throws -> FeedResult {
        let s = compute(try scope.facts(), counts: try scope.source.collectionCounts(), env: scope.env)
        return scope.result(s.total == 0 ? .empty : .ready, view(s, scope), .stats(s))
    }

    /// The counts over `facts` at `env.now`, in the local calendar.
    static func compute(_ facts: [MemoryFacts], counts: CollectionCounts, env: FeedEnvironment) -> MemoryStats {
        var s = MemoryStats()
        let today = env.today
        let startOfDay = env.calendar.startOfDay(today)
        let weekAgo = env.calendar.startOfDay(today + 1 - MemoryStats.weekDays)
        var tagCounts: [String: Int] = [:]
        var days = Set<Int>()
        for m in facts {
            s.total += 1
            if m.created >= startOfDay { s.today += 1 }
            if m.created >= weekAgo { s.thisWeek += 1 }
            s.perType[m.kind.rawValue, default: 0] += 1
            for t in m.tags { tagCounts[t, default: 0] += 1 }
            if m.pinned { s.pinned += 1 }
            days.insert(env.calendar.dayNumber(m.created))
            switch env.decay.fadingState(of: m, at: env.now) {
            case .faded: s.expired += 1
            case .fadingSoon: s.expiringSoon += 1
            case .inSearch: break
            }
        }
        if let top = tagCounts.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }) {
            s.topTag = top.key
            s.topTagCount = top.value
        }
        s.streakDays = Streak.days(endingAt: today, dayBefore: { $0 - 1 }, isActive: days.contains)
        s.connections = counts.links
        s.curricula = counts.curricula
        s.topics = counts.topics
        s.topicsDone = counts.topicsDone
        return s
    }

    /// Share of memories still in search, as a whole percentage (100 when there are none).
    static func retention(_ s: MemoryStats) -> Int {
        s.total == 0 ? 100 : (s.total - s.expired) * 100 / s.total
    }

    static func view(_ s: MemoryStats, _ scope: FeedScope) -> FeedView {
        let streak = s.streakDays == 0 ? "no streak" : "\(s.streakDays)-day streak"
        let text: String
        switch scope.size {
        case .small: text = "◉ \(s.total)"
        case .medium: text = "◉ \(s.total) · \(s.today) today · \(streak)"
        case .large: text = "◉ \(FeedPhrases.count(s.total, "memory", "memories")) · \(s.today) today · \(s.thisWeek) this week · \(streak) · \(s.expiringSoon) fading"
        }
        let types = MemoryType.allCases.map { FeedPhrases.count(s.perType[$0.rawValue] ?? 0, $0.rawValue, $0.plural) }.joined(separator: ", ")
        var detail = [
            "\(FeedPhrases.count(s.total, "memory", "memories"))\(scope.inContext): \(types)",
            "Today \(s.today) · this week \(s.thisWeek) · streak \(FeedPhrases.count(s.streakDays, "day"))",
        ]
        if let t = s.topTag { detail.append("Top tag: #\(DisplayText.line(t, limit: 40)) (\(s.topTagCount))") }
        detail.append("Connections: \(s.connections) · pinned: \(s.pinned)")
        detail.append("Fading within a week: \(s.expiringSoon) · faded from search: \(s.expired)")
        if s.curricula > 0 {
            detail.append("Curricula: \(s.curricula) with \(FeedPhrases.count(s.topics, "topic")), \(s.topicsDone) done")
        }
        let block: [String]
        switch scope.size {
        case .small: block = [text]
        case .medium: block = [text, detail[0]]
        case .large: block = [text] + detail
        }
        return FeedView(
            text: text, shortText: "◉ \(s.total)", block: block, tooltip: detail, alt: "stats",
            classes: [(s.total == 0 ? FeedState.empty : FeedState.ready).rawValue] + (s.expiringSoon > 0 ? ["fading"] : []),
            percentage: retention(s))
    }
}
