import EngramCore

/// What a live activity shows at one moment, independent of where it is shown.
///
/// Text here is plain and unescaped; each surface makes it safe for itself.
public struct ActivityContent: Sendable, Equatable {
    /// The activity's name, such as “Rust: Ownership” or “Capture”.
    public var title: String
    /// Where it stands, one or two words: “Studying”, “Paused”, “Capturing”, “Processing”, “Complete”.
    public var status: String
    /// Lines of detail, such as “3 of 8 topics · 12 min”.
    public var details: [String]
    /// A quoted text, such as the last memory captured.
    public var quote: String?
    /// Progress as done of total, if it is measured.
    public var progress: Progress?
    /// The buttons offered.
    public var buttons: [ActivityButton]
    /// Where Open leads: an `engram://` link.
    public var openLink: String?

    /// Progress as a count of a total.
    public struct Progress: Sendable, Equatable {
        /// How many are done.
        public var done: Int
        /// How many there are.
        public var total: Int
        /// Creates progress.
        public init(done: Int, total: Int) {
            self.done = done
            self.total = total
        }
        /// The progress in whole percent, 0 to 100.
        public var percent: Int {
            guard total > 0 else { return 0 }
            return min(100, max(0, done * 100 / total))
        }
    }

    /// Creates content.
    public init(title: String, status: String, details: [String] = [], quote: String? = nil,
                progress: Progress? = nil, buttons: [ActivityButton] = [], openLink: String? = nil) {
        self.title = title
        self.status = status
        self.details = details
        self.quote = quote
        self.progress = progress
        self.buttons = buttons
        self.openLink = openLink
    }

    /// The same content without buttons, for when nothing is left to answer them.
    var withoutButtons: ActivityContent {
        var c = self
        c.buttons = []
        return c
    }

    /// The same content shown as out of date, after the watchdog saw no update for `seconds`.
    func stalled(after seconds: Int) -> ActivityContent {
        var c = self
        c.status = "Stalled"
        c.details = ["No update for \(DurationText.short(seconds: Double(seconds)))"] + details
        return c
    }
}

/// One button: what it does and its label.
public struct ActivityButton: Sendable, Equatable {
    /// What pressing it does.
    public var action: ActivityAction
    /// The label.
    public var label: String

    /// Creates a button.
    public init(_ action: ActivityAction, _ label: String? = nil) {
        self.action = action
        self.label = label ?? action.defaultLabel
    }
}

/// What a person can do from a live activity.
public enum ActivityAction: String, Sendable, Equatable, CaseIterable {
    case pause, resume, stop, open

    /// The button label.
    var defaultLabel: String {
        switch self {
        case .pause: return "Pause"
        case .resume: return "Resume"
        case .stop: return "Stop"
        case .open: return "Open"
        }
    }

    /// The session state-machine action this button drives, if any.
    public var sessionAction: DeepLink.SessionAction? {
        switch self {
        case .pause: return .pause
        case .resume: return .resume
        case .stop: return .stop
        case .open: return nil
        }
    }
}

/// Something that happened on a surface that the activity's owner must act on.
public enum ActivityEvent: Sendable, Equatable {
    /// The person pressed Pause, Resume or Stop.
    case action(DeepLink.SessionAction)
    /// The person pressed Open (or clicked the notification), with the server's activation token if it sent one.
    case open(activationToken: String?)
    /// The person dismissed the activity: it stops updating and never comes back.
    case dismissedByUser
    /// The server came back (or was replaced): the current content must be shown again.
    case needsRepost
    /// Nothing can show the activity right now; the session goes on without it.
    case unavailable(String)
    /// A notification was posted under a new id (first shown, or shown again after it closed or the server changed).
    case posted(NotificationHandOff)
    /// What was shown is off the screen (closed for any reason, or its server went away).
    case gone
}

/// When an ended activity goes away (ActivityKit's dismissal policies).
public enum DismissalPolicy: Sendable, Equatable {
    /// Removed as soon as it ends.
    case immediate
    /// Removed after a while, by our own timer (GNOME ignores timeouts), and by the server's where it honours them.
    case after(Duration)
    /// Left to the server's own default.
    case `default`
}

/// How a presentation differs from the previous one, which decides its urgency and persistence.
public enum PresentationKind: Sendable, Equatable {
    /// A silent update of the same state: low urgency, transient.
    case tick
    /// A change of state (started, paused, resumed): normal urgency.
    case transition
    /// The end, shown until the dismissal policy removes it.
    case final(DismissalPolicy)

    /// Whether this is the end.
    public var isFinal: Bool {
        if case .final = self { return true }
        return false
    }
}

/// Human durations in whole minutes, so a live activity changes at most once a minute: “12 min”, “1 h 05 min”.
public enum DurationText {
    /// A duration in minutes: “under a minute”, “12 min”, “1 h 05 min”.
    public static func short(seconds: Double) -> String {
        let s = max(0, Int(seconds))
        if s < 60 { return "under a minute" }
        let minutes = s / 60
        if minutes < 60 { return "\(minutes) min" }
        let m = minutes % 60
        return "\(minutes / 60) h \(m < 10 ? "0" : "")\(m) min"
    }
}
