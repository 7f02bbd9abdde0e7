/// `--format polybar`: one line for a polybar `custom/script` module, coloured by state.
///
/// polybar interprets `%{…}` tags (colours, and `%{A1:cmd:}` actions that run commands on click) and has no
/// escape for them, so a zero-width space is put between `%` and `{` in stored text: it shows, and does nothing.
public struct PolybarRenderer: FeedRenderer {
    public init() {}

    public func render(_ r: FeedResult) -> String {
        let text = SinkEscaping.polybar(r.view.text)
        guard let c = r.view.color, !text.isEmpty else { return text }
        return "%{F\(c)}" + text + "%{F-}"
    }
}
