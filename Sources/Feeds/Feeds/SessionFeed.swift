/// `session`: the active capture or learning session, like a live activity; idle shows nothing on a bar.
enum SessionFeed {
    static func build(_ scope: FeedScope) throws -> FeedResult {
        guard let session = try scope.source.activeSession() else {
            return scope.quiet(.idle, "no capture or learning session is running; `engram session start` begins one",
                               payload: .session(nil))
        }
        let detail = SessionDetail(session: session, elapsed: session.elapsed(at: scope.env.now))
        let state: FeedState = session.state == .paused ? .paused : .running
        return scope.result(state, view(detail, state: state, scope), .session(detail))
    }

    static func view(_ d: SessionDetail, state: FeedState, _ scope: FeedScope) -> FeedView {
        let s = d.session
        let env = scope.env
        let symbol = state == .paused ? "‖" : "▶"
        let title = DisplayText.line(s.title.isEmpty ? s.kind.rawValue.capitalizedFirst : s.title, limit: 120)
        let progress = s.progressTotal > 0 ? "\(s.progressDone)/\(s.progressTotal)" : (s.kind == .capture && s.progressDone > 0 ? "\(s.progressDone) captured" : "")
        let short = FeedPhrases.duration(d.elapsed)
        let text: String
        switch scope.size {
        case .small: text = "\(symbol) \(short)"
        case .medium: text = [symbol + " " + DisplayText.truncate(title, 40), short, progress].filter { !$0.isEmpty }.joined(separator: " · ")
        case .large: text = [symbol + " " + s.kind.rawValue, DisplayText.truncate(title, 80), FeedPhrases.duration(d.elapsed, withSeconds: true), progress]
            .filter { !$0.isEmpty }.joined(separator: " · ")
        }
        let bar = s.progressTotal > 0 ? "\(FeedPhrases.bar(s.percentage)) \(progress) (\(s.percentage)%)" : ""
        var tooltip = [title, "\(s.kind.rawValue.capitalizedFirst) session · \(s.state.rawValue) · \(FeedPhrases.duration(d.elapsed, withSeconds: true))"]
        if !bar.isEmpty { tooltip.append(bar) } else if !progress.isEmpty { tooltip.append(progress) }
        tooltip.append("Started \(FeedPhrases.time(s.started, env.calendar)) on \(FeedPhrases.day(s.started, env.calendar))")
        let block: [String]
        switch scope.size {
        case .small: block = [text]
        case .medium: block = bar.isEmpty ? [text] : [text, bar]
        case .large: block = tooltip
        }
        return FeedView(
            text: text, shortText: "\(symbol) \(short)", block: block, tooltip: tooltip, alt: state.rawValue,
            classes: [state.rawValue, s.kind.rawValue], percentage: s.percentage,
            color: state == .paused ? FeedColor.paused : FeedColor.running)
    }
}

extension String {
    /// The string with its first letter in upper case ("learning" → "Learning").
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
