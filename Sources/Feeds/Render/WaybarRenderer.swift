/// `--format waybar`: one JSON object per line for a Waybar 0.9.17 custom module with `return-type: json`.
///
/// Waybar parses `text`, `alt` and `tooltip` as Pango markup, so `& < > " '` are escaped here (leave the
/// module's `escape` off); `percentage` is an integer, as 0.9.17 reads only unsigned integers; `class`
/// lists the state first. Empty `text` hides the module.
public struct WaybarRenderer: FeedRenderer {
    public init() {}

    public func render(_ r: FeedResult) -> String {
        let v = r.view
        return JSONValue.object([
            ("text", .string(SinkEscaping.pango(v.text))),
            ("alt", .string(SinkEscaping.pango(v.alt))),
            ("tooltip", .string(SinkEscaping.pango(v.tooltip.joined(separator: "\n")))),
            ("class", .array(v.classes.map { .string($0) })),
            ("percentage", .int(v.percentage)),
        ]).encoded
    }
}
