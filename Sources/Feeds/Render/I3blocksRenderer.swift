/// `--format i3blocks`: i3blocks 1.4 plain mode — `full_text`, `short_text` and, when the state has one, a colour.
///
/// Plain mode sidesteps 1.4's naive JSON parser; lines are cut to its buffers (1023 and 511 bytes). With
/// `--watch` (for `interval=persist`) each update is the `full_text` line alone.
public struct I3blocksRenderer: FeedRenderer {
    public init() {}

    public func render(_ r: FeedResult) -> String {
        let v = r.view
        var lines = [DisplayText.truncate(v.text, bytes: 1023), DisplayText.truncate(v.shortText, bytes: 511)]
        if let c = v.color, !v.text.isEmpty { lines.append(c) }
        return lines.joined(separator: "\n")
    }

    /// The single line of a `persist` update.
    public func persistLine(_ r: FeedResult) -> String { DisplayText.truncate(r.view.text, bytes: 1023) }
}
