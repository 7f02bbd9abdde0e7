/// A feed laid out for display, as plain clean text: renderers escape it for their sink.
///
/// Every string here has been through `DisplayText`: no control characters, and `text`, `shortText`,
/// `alt` and each line of `block` and `tooltip` are single lines.
public struct FeedView: Sendable, Equatable {
    /// One line for a bar, sized.
    public var text: String
    /// A shorter line for narrow bars (i3blocks `short_text`).
    public var shortText: String
    /// Lines for multi-line widgets and terminals (Conky, `text`), sized.
    public var block: [String]
    /// Detail lines for a tooltip or notification body.
    public var tooltip: [String]
    /// A word for icon lookups (Waybar `alt`, `format-icons`): the memory type or the state.
    public var alt: String
    /// CSS classes, the state first.
    public var classes: [String]
    /// A whole percentage 0…100 (strength, progress or review done).
    public var percentage: Int
    /// A `#rrggbb` colour for sinks that take one, or nil for the default.
    public var color: String?

    /// Creates a view; `shortText` defaults to `text` and `block` to `[text]`.
    public init(text: String, shortText: String? = nil, block: [String]? = nil, tooltip: [String] = [], alt: String,
                classes: [String], percentage: Int = 0, color: String? = nil) {
        self.text = text
        self.shortText = shortText ?? text
        self.block = block ?? (text.isEmpty ? [] : [text])
        self.tooltip = tooltip
        self.alt = alt
        self.classes = classes
        self.percentage = min(100, max(0, percentage))
        self.color = color
    }
}

/// Colours shared by the feeds (One Dark palette, legible on dark and light bars).
enum FeedColor {
    static let fading = "#e5c07b"
    static let running = "#98c379"
    static let paused = "#e5c07b"
    static let due = "#61afef"
    static let quiet = "#7f848e"
    static let error = "#e06c75"
}
