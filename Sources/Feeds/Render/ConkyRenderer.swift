/// `--format conky` and `conky-parsed`: the sized block of lines for a Conky `conky.text`.
///
/// Plain output is for `${execi N …}` / `${texeci N …}`, which print it as is. Parsed output is for
/// `${execpi N …}`, which evaluates it as Conky text: every `$` becomes `$$` and `#` becomes `\#`, so a
/// memory holding `${exec …}` stays words, and the feed adds its own `${color}` around the first line.
public struct ConkyRenderer: FeedRenderer {
    /// Whether the output is for Conky's parsed `execp`/`execpi`.
    public var parsed: Bool

    public init(parsed: Bool) { self.parsed = parsed }

    public func render(_ r: FeedResult) -> String {
        let lines = r.view.block.isEmpty && r.state == .error ? r.view.tooltip : r.view.block
        guard parsed else { return lines.joined(separator: "\n") }
        var out = lines.map(SinkEscaping.conkyParsed)
        if let color = r.view.color, !out.isEmpty {
            out[0] = "${color \(color)}" + out[0] + "${color}"
        }
        return out.joined(separator: "\n")
    }
}
