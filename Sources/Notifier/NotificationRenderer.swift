import DBus
import EngramCore

/// Turns activity content into a `Notify` call that suits one server: markup or plain text, a drawn
/// progress bar or a text one, buttons or none, and the hints that keep updates quiet and in place.
public struct NotificationRenderer: Sendable {
    /// The application name sent with every notification.
    public var appName: String
    /// The desktop entry (without `.desktop`), for servers that group or theme by it.
    public var desktopEntry: String
    /// The icon name.
    public var icon: String
    /// The value of the stack-tag hints: one per activity, so the server replaces rather than stacks.
    public var stackTag: String

    /// The longest summary sent, in characters.
    static let summaryLimit = 120
    /// The longest detail line, in characters.
    static let lineLimit = 160
    /// The longest quote, in characters.
    static let quoteLimit = 200

    /// Creates a renderer.
    public init(appName: String = "Engram", desktopEntry: String = EngramBus.desktopEntry, icon: String = EngramBus.desktopEntry,
                stackTag: String) {
        self.appName = appName
        self.desktopEntry = desktopEntry
        self.icon = icon
        self.stackTag = stackTag
    }

    /// The `Notify` request for `content` on a server with `profile`, replacing `replacesID` (0 for a new one).
    public func request(for content: ActivityContent, kind: PresentationKind, profile: ServerProfile,
                        replacesID: UInt32) -> NotificationRequest {
        var progressLine: String?
        var hints: [String: DBusValue] = [
            "desktop-entry": .string(desktopEntry),
            "urgency": .byte(kind == .tick ? 0 : 1),
        ]
        if let progress = content.progress {
            switch profile.progressStyle {
            case .valueHint: hints["value"] = .int32(Int32(progress.percent))
            case .textBar: progressLine = Self.textBar(progress)
            }
        }
        for tag in profile.stackTags { hints[tag] = .string(stackTag) }
        if kind == .tick {
            hints["suppress-sound"] = .boolean(true)
            if profile.persistence { hints["transient"] = .boolean(true) }
        }

        let title = NotificationText.line(content.title, limit: Self.summaryLimit)
        let status = NotificationText.line(content.status, limit: 40)
        let details = content.details.map { NotificationText.line($0, limit: Self.lineLimit) }.filter { !$0.isEmpty }
        var quote: String?
        if let text = content.quote {
            let line = NotificationText.line(text, limit: Self.quoteLimit)
            quote = line.isEmpty ? nil : line
        }

        var summary = status.isEmpty ? title : "\(title) — \(status)"
        var body = ""
        if profile.showsBody {
            var lines: [String] = []
            let markup = profile.bodyMarkup
            func escape(_ text: String) -> String { markup ? Markup.escape(text, quotes: false) : text }
            lines += details.map { escape($0) }
            if let progressLine { lines.append(progressLine) }
            if let quote { lines.append(markup ? "<i>“\(escape(quote))”</i>" : "“\(quote)”") }
            body = lines.joined(separator: "\n")
        } else {
            // No body: the summary carries the essentials on one line.
            var extra = details.first.map { [$0] } ?? []
            if let progressLine { extra.append(progressLine) }
            if !extra.isEmpty { summary += " · " + extra.joined(separator: " · ") }
            summary = NotificationText.truncate(summary, limit: Self.summaryLimit + 80)
        }

        var actions: [NotificationAction] = []
        if profile.actions {
            for button in content.buttons {
                let key = button.action == .open ? "default" : button.action.rawValue
                actions.append(NotificationAction(key: key, label: NotificationText.line(button.label, limit: 24)))
            }
            // Keep a live notification up after a button is pressed, so Pause shows “Paused” in place.
            if !actions.isEmpty, !kind.isFinal { hints["resident"] = .boolean(true) }
        }

        var timeout: Int32 = 0
        if case .final(let policy) = kind {
            switch policy {
            case .immediate, .default: timeout = -1
            case .after(let duration):
                let ms = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
                timeout = Int32(clamping: max(1, ms))
            }
        }
        return NotificationRequest(appName: appName, replacesID: replacesID, appIcon: icon, summary: summary, body: body,
                                   actions: actions, hints: hints, expireTimeout: timeout)
    }

    /// A bar of ten cells and the count, for servers that do not draw the `value` hint: `▓▓▓░░░░░░░ 3/8`.
    static func textBar(_ progress: ActivityContent.Progress) -> String {
        let filled = progress.total > 0 ? min(10, max(0, progress.done * 10 / progress.total)) : 0
        return String(repeating: "▓", count: filled) + String(repeating: "░", count: 10 - filled)
            + " \(progress.percent) %"
    }
}

extension NotificationServer {
    /// Whether the server running now reads bodies as markup (`body-markup`), asked at each call since another server
    /// may have taken the name; when it cannot be asked, markup is assumed (escaped text is safe on either kind).
    public func readsBodyMarkup() async -> Bool {
        (try? await capabilities()).map { $0.contains("body-markup") } ?? true
    }
}

extension NotificationRequest {
    /// Plain text as a body shown literally: escaped for a server that reads bodies as markup, as it is for one that
    /// does not (which would show `&amp;`). Summaries are always plain text and never escaped.
    public static func literalBody(_ text: String, markup: Bool) -> String {
        markup ? Markup.escape(text, quotes: false) : text
    }
}
