/// `motd`: the memory of the day, laid out per size.
enum MotdFeed {
    static func build(_ scope: FeedScope) throws -> FeedResult {
        guard let id = try MemoryOfTheDay.choose(scope), let d = try scope.details([id]).first else {
            return scope.quiet(.empty, "nothing to resurface yet\(scope.inContext); memories you capture show here from tomorrow",
                               payload: .memory(nil))
        }
        return scope.result(.ready, view(d, scope), .memory(d))
    }

    static func view(_ d: MemoryDetail, _ scope: FeedScope) -> FeedView {
        let env = scope.env
        let m = d.memory
        let kind = m.facts.kind
        let title = DisplayText.line(m.title, limit: FeedSize.large.titleLimit)
        let strength = FeedPhrases.percent(d.strength)
        let fading = FeedPhrases.fading(d, now: env.now)
        let tags = FeedPhrases.tags(m.facts.tags)
        let meta = [kind.rawValue, tags, "\(strength)%", fading].filter { !$0.isEmpty }.joined(separator: " · ")
        let text = kind.symbol + " " + DisplayText.truncate(title, scope.size.titleLimit)

        let block: [String]
        switch scope.size {
        case .small: block = [text]
        case .medium: block = [text, meta]
        case .large:
            var lines = DisplayText.wrap(m.content, width: 64, maxLines: 8)
            if lines.isEmpty { lines = [""] }
            lines[0] = kind.symbol + " " + lines[0]
            block = lines + [meta]
        }

        var tooltip = DisplayText.wrap(m.content, width: 72, maxLines: 12)
        tooltip.append("")
        tooltip.append([kind.rawValue, tags].filter { !$0.isEmpty }.joined(separator: " · "))
        tooltip.append("Strength \(strength)% · \(fading)")
        var history = "Captured \(FeedPhrases.day(m.facts.created, env.calendar)) · \(FeedPhrases.uses(m.facts.useCount))"
        if m.facts.links > 0 { history += " · \(FeedPhrases.count(m.facts.links, "link"))" }
        tooltip.append(history)

        let soon = d.daysLeft(at: env.now).map { $0 <= 7 } ?? false
        return FeedView(
            text: text, shortText: kind.symbol + " " + DisplayText.truncate(title, 16), block: block, tooltip: tooltip,
            alt: kind.rawValue, classes: [FeedState.ready.rawValue, kind.rawValue] + (soon ? ["fading"] : []),
            percentage: strength, color: soon ? FeedColor.fading : nil)
    }
}
