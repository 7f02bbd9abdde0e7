/// `--format rofi`: rofi script-mode rows, one per memory: `text\0icon\x1fNAME\x1finfo\x1fID\x1fmeta\x1fTAGS`.
///
/// `\0`, `\x1f` and line breaks in stored text were made visible by `DisplayText`, so a title cannot end
/// its row or forge an option. Feeds without memories give their lines as plain rows.
public struct RofiRenderer: FeedRenderer {
    public init() {}

    public func render(_ r: FeedResult) -> String {
        let memories = r.payload.shownMemories
        guard !memories.isEmpty else { return r.view.block.joined(separator: "\n") }
        return memories.map { d in
            let m = d.memory
            let text = m.facts.kind.symbol + " " + DisplayText.line(m.title, limit: 100)
            let meta = ([m.facts.kind.rawValue] + m.facts.tags.map { DisplayText.line($0, limit: 40) }).joined(separator: " ")
            return text + "\0icon\u{1F}" + m.facts.kind.iconName + "\u{1F}info\u{1F}" + DisplayText.line(m.id, limit: 64)
                + "\u{1F}meta\u{1F}" + meta
        }.joined(separator: "\n")
    }
}

/// `--format dmenu`: one line per memory for dmenu, fuzzel and wofi, ending in `⟨id⟩` for the script to cut out.
public struct DmenuRenderer: FeedRenderer {
    public init() {}

    public func render(_ r: FeedResult) -> String {
        let memories = r.payload.shownMemories
        guard !memories.isEmpty else { return r.view.block.joined(separator: "\n") }
        return memories.map { d in
            let m = d.memory
            let tags = FeedPhrases.tags(m.facts.tags)
            return m.facts.kind.symbol + " " + DisplayText.line(m.title, limit: 90)
                + (tags.isEmpty ? "" : "  " + tags) + "  ⟨" + DisplayText.line(m.id, limit: 64) + "⟩"
        }.joined(separator: "\n")
    }
}

extension FeedPayload {
    /// The memories a list sink shows: the motd, the recent list, or the review list.
    var shownMemories: [MemoryDetail] {
        switch self {
        case .memory(let d): d.map { [$0] } ?? []
        case .memories(let list): list
        case .review(_, let list): list
        case .none, .stats, .session: []
        }
    }
}
