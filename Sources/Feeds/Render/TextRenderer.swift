/// `--format text`: the sized block for a terminal; when nothing shows, the reason instead.
///
/// Control characters, including ESC, were made visible by `DisplayText`, so stored text cannot drive the terminal.
public struct TextRenderer: FeedRenderer {
    public init() {}

    public func render(_ r: FeedResult) -> String {
        if !r.view.block.isEmpty { return r.view.block.joined(separator: "\n") }
        return r.message.map(FeedPhrases.sentence) ?? ""
    }
}
