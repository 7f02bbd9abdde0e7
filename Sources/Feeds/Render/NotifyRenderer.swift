/// `--format notify`: for `notify-send`: line 1 is the summary (no stored text), the rest the body.
///
/// Notification servers that advertise `body-markup` parse the body as markup, so `& < > " '` are escaped
/// (the freedesktop spec: always escape). Quiet states print nothing, so a timer sends no notification.
public struct NotifyRenderer: FeedRenderer {
    public init() {}

    public func render(_ r: FeedResult) -> String {
        guard !r.state.isQuiet, r.state != .idle else { return "" }
        let summary: String
        switch r.feed {
        case .motd: summary = "Memory of the day"
        case .stats: summary = "Your memories today"
        case .session: summary = r.state == .paused ? "Session paused" : "Session running"
        case .review:
            if case .review(let s, _) = r.payload, s.due > 0 {
                summary = "\(FeedPhrases.count(s.due, "memory", "memories")) to review today"
            } else {
                summary = "Nothing to review today"
            }
        case .recent: summary = "Recent memories"
        }
        let body = r.state == .error ? [r.message ?? ""] : r.view.tooltip
        return ([summary] + body.map(SinkEscaping.pango)).joined(separator: "\n")
    }
}
