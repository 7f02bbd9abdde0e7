/// What one notification server can show, decided once from `GetServerInformation` and `GetCapabilities`.
public struct ServerProfile: Sendable, Equatable {
    /// Who the server is.
    public var information: ServerInformation
    /// What it advertises.
    public var capabilities: Set<String>

    /// Creates a profile.
    public init(information: ServerInformation, capabilities: Set<String>) {
        self.information = information
        self.capabilities = capabilities
    }

    /// Servers known to draw the `value` hint as a bar (the specification has no capability for it).
    static let progressDrawingServers: Set<String> = ["dunst", "mako", "swaync", "xfce4-notifyd", "Xfce Notify Daemon"]
    /// Servers known to ignore the `value` hint: GNOME Shell and KDE Plasma.
    static let progressIgnoringServers: Set<String> = ["gnome-shell", "Plasma"]
    /// The replace-by-tag hints servers advertise as capabilities (dunst advertises all of them).
    static let stackTagHints = ["x-dunst-stack-tag", "x-canonical-private-synchronous", "private-synchronous", "synchronous"]

    /// How progress reaches the person on this server.
    public enum ProgressStyle: Sendable, Equatable {
        /// The int32 `value` hint, drawn by the server as a bar.
        case valueHint
        /// A bar of block characters in the body, for servers that do not draw `value` (GNOME, KDE).
        case textBar
    }

    /// The progress style: a text bar on servers known to ignore `value`, the hint everywhere else.
    public var progressStyle: ProgressStyle {
        Self.progressIgnoringServers.contains(information.name) ? .textBar : .valueHint
    }

    /// Whether the body may carry markup (then `& < >` in text must be escaped).
    public var bodyMarkup: Bool { capabilities.contains("body-markup") }
    /// Whether the server shows a body at all; without it everything must fit in the summary.
    public var showsBody: Bool { capabilities.contains("body") }
    /// Whether the server shows buttons and reports `ActionInvoked`.
    public var actions: Bool { capabilities.contains("actions") }
    /// Whether the server keeps notifications (history, tray): ticks are then sent `transient`.
    public var persistence: Bool { capabilities.contains("persistence") }
    /// The stack-tag hints this server advertises, to send alongside `replaces_id`.
    public var stackTags: [String] { Self.stackTagHints.filter(capabilities.contains) }
    /// Whether the server ignores `expire_timeout` (GNOME), so timed dismissal needs our own timer.
    public var ignoresTimeouts: Bool { information.name == "gnome-shell" }
    /// Whether this is KDE Plasma, which rejects identical notifications within a second.
    public var isPlasma: Bool { information.name == "Plasma" }
}
