/// `recent`: the newest memories (also the list rofi and dmenu pipelines start from).
enum RecentFeed {
    static func build(_ scope: FeedScope) throws -> FeedResult {
        let env = scope.env
        let newest = try scope.source.newestFacts(context: scope.context, limit: scope.request.limit ?? 10)
        let shown = try scope.details(newest.map(\.id))
        guard let first = shown.first else {
            return scope.quiet(.empty, "no memories yet\(scope.inContext); capture one with `engram remember`", payload: .memories([]))
        }
        let rows = shown.map { d in
            d.memory.facts.kind.symbol + " " + DisplayText.line(d.memory.title, limit: 56) + " · "
                + FeedPhrases.age(d.memory.facts.created, now: env.now, calendar: env.calendar)
        }
        let title = DisplayText.line(first.memory.title, limit: FeedSize.large.titleLimit)
        let text = first.memory.facts.kind.symbol + " " + DisplayText.truncate(title, scope.size.titleLimit)
        let count = scope.request.limit ?? scope.size.listCount
        let view = FeedView(
            text: text, shortText: first.memory.facts.kind.symbol + " " + DisplayText.truncate(title, 16),
            block: Array(rows.prefix(count)), tooltip: rows, alt: first.memory.facts.kind.rawValue,
            classes: [FeedState.ready.rawValue, first.memory.facts.kind.rawValue], percentage: FeedPhrases.percent(first.strength))
        return scope.result(.ready, view, .memories(shown))
    }
}
