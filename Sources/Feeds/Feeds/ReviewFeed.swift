/// `review`: memories due for review today — fading from search within a week — oldest first.
///
/// "Due" is the same rule as the `expiringSoon` count of `stats`, so the two feeds always agree.
enum ReviewFeed {
    static func build(_ scope: FeedScope) throws -> FeedResult {
        let env = scope.env
        let facts = try scope.facts()
        var due: [MemoryFacts] = []
        var faded = 0
        for m in facts {
            switch env.decay.fadingState(of: m, at: env.now) {
            case .faded: faded += 1
            case .fadingSoon: due.append(m)
            case .inSearch: break
            }
        }
        due.sort { $0.created != $1.created ? $0.created < $1.created : $0.id < $1.id }
        let inScope = Set(facts.map(\.id))
        let reviewed = Set(try scope.source.activities(since: env.dayStart)
            .filter { $0.action.reinforces && inScope.contains($0.memoryID) }.map(\.memoryID))
        let summary = ReviewSummary(due: due.count, reviewedToday: reviewed.count, faded: faded)
        let shown = try scope.details(due.prefix(scope.request.limit ?? 10).map(\.id))
        return scope.result(due.isEmpty ? .clear : .due, view(summary, shown, scope), .review(summary, shown))
    }

    /// Share of today's review done: reviewed / (reviewed + due), 100 when nothing was due.
    static func progress(_ s: ReviewSummary) -> Int {
        s.due + s.reviewedToday == 0 ? 100 : s.reviewedToday * 100 / (s.due + s.reviewedToday)
    }

    static func view(_ s: ReviewSummary, _ shown: [MemoryDetail], _ scope: FeedScope) -> FeedView {
        let env = scope.env
        let text: String
        switch (scope.size, s.due) {
        case (.small, _): text = "↻ \(s.due)"
        case (.medium, 0): text = "↻ nothing due"
        case (.medium, _): text = "↻ \(s.due) to review"
        case (.large, 0): text = "↻ nothing due · \(s.reviewedToday) reviewed today"
        case (.large, _): text = "↻ \(s.due) to review · \(s.reviewedToday) reviewed today"
        }
        let rows = shown.map { d in
            d.memory.facts.kind.symbol + " " + DisplayText.line(d.memory.title, limit: 56) + " — " + FeedPhrases.fading(d, now: env.now)
        }
        var tooltip = [s.due == 0 ? "Nothing is due for review\(scope.inContext)." : "\(FeedPhrases.count(s.due, "memory", "memories")) fading from search within a week\(scope.inContext):"]
        tooltip += rows
        if s.due > shown.count { tooltip.append("… and \(s.due - shown.count) more") }
        tooltip.append("Reviewed today: \(s.reviewedToday) · already faded: \(s.faded)")
        let block: [String]
        switch scope.size {
        case .small: block = [text]
        case .medium: block = [text] + rows.prefix(FeedSize.medium.listCount)
        case .large: block = [text] + rows.prefix(scope.request.limit ?? FeedSize.large.listCount)
        }
        return FeedView(
            text: text, shortText: "↻ \(s.due)", block: block, tooltip: tooltip, alt: s.due == 0 ? "clear" : "due",
            classes: [(s.due == 0 ? FeedState.clear : FeedState.due).rawValue], percentage: progress(s),
            color: s.due == 0 ? nil : FeedColor.due)
    }
}
