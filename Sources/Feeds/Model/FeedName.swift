/// The feeds Engram offers to bars and widgets.
public enum FeedName: String, Sendable, CaseIterable {
    /// Memory of the day: one memory close to being forgotten, the same all day.
    case motd
    /// Counts: total, today, this week, streak, per type, fading soon.
    case stats
    /// The active capture or learning session, or idle.
    case session
    /// Memories due for review today (fading from search within a week), oldest first.
    case review
    /// The newest memories.
    case recent
}

/// How much a feed shows, like iOS widget families.
public enum FeedSize: String, Sendable, CaseIterable {
    case small, medium, large

    /// Characters of a title on one line of a bar.
    public var titleLimit: Int {
        switch self {
        case .small: 24
        case .medium: 60
        case .large: 120
        }
    }

    /// Entries a list feed shows.
    public var listCount: Int {
        switch self {
        case .small: 1
        case .medium: 3
        case .large: 8
        }
    }
}

/// What a feed is showing; renderers turn it into a CSS class, colour or i3blocks urgency.
public enum FeedState: String, Sendable {
    /// A memory or list to show.
    case ready
    /// Nothing stored (in this context) yet.
    case empty
    /// No session is active.
    case idle
    /// A session is running.
    case running
    /// A session is paused.
    case paused
    /// Memories are due for review.
    case due
    /// Nothing is due for review.
    case clear
    /// The `sleep` context is on: feeds show nothing.
    case sleep
    /// `[privacy] feeds = false` in config.toml: feeds show nothing.
    case disabled
    /// There is no store yet.
    case missing
    /// The store could not be read.
    case error

    /// Whether this state shows nothing on a bar (the widget hides).
    public var isQuiet: Bool { self == .sleep || self == .disabled || self == .missing }
}
