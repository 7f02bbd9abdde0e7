/// Turns a feed result into the text one sink reads; each renderer owns its sink's escaping.
public protocol FeedRenderer: Sendable {
    /// The output for one update, without the final newline.
    func render(_ result: FeedResult) -> String
}

/// The sinks a feed can be printed for.
public enum FeedFormat: String, Sendable, CaseIterable {
    /// Versioned JSON, one object on one line (schema in Integrations/FEEDS-SCHEMA.md).
    case json
    /// Waybar 0.9.17 custom module, `return-type: json`.
    case waybar
    /// Conky `execi`/`texeci` (output not parsed).
    case conky
    /// Conky `execp`/`execpi` (output parsed: escaped, with colour).
    case conkyParsed = "conky-parsed"
    /// i3blocks 1.4 plain mode: full_text, short_text, colour lines.
    case i3blocks
    /// polybar `custom/script`.
    case polybar
    /// Terminals.
    case text
    /// `notify-send`: a summary line, then a body escaped for notification markup.
    case notify
    /// rofi script mode rows (`text\0icon\x1f…\x1finfo\x1fID`).
    case rofi
    /// dmenu, fuzzel and wofi: one line per memory ending in its id.
    case dmenu

    /// The renderer for this sink.
    public var renderer: FeedRenderer {
        switch self {
        case .json: JSONRenderer()
        case .waybar: WaybarRenderer()
        case .conky: ConkyRenderer(parsed: false)
        case .conkyParsed: ConkyRenderer(parsed: true)
        case .i3blocks: I3blocksRenderer()
        case .polybar: PolybarRenderer()
        case .text: TextRenderer()
        case .notify: NotifyRenderer()
        case .rofi: RofiRenderer()
        case .dmenu: DmenuRenderer()
        }
    }

    /// Whether `--watch` makes sense: the sink reads one line per update.
    public var streams: Bool {
        switch self {
        case .json, .waybar, .i3blocks, .polybar, .text: true
        case .conky, .conkyParsed, .notify, .rofi, .dmenu: false
        }
    }
}
