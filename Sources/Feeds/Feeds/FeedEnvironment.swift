/// What a feed is computed from besides the store: the time, the calendar and the settings.
public struct FeedEnvironment: Sendable, Equatable {
    /// Seconds since 1970.
    public var now: Double
    public var calendar: LocalCalendar
    public var config: FeedConfig

    /// Creates an environment.
    public init(now: Double, calendar: LocalCalendar = .system, config: FeedConfig = FeedConfig()) {
        self.now = now
        self.calendar = calendar
        self.config = config
    }

    /// Today's local day number.
    var today: Int { calendar.dayNumber(now) }
    /// Local midnight today.
    var dayStart: Double { calendar.startOfDay(today) }
    /// The forgetting curve.
    var decay: DecayModel { config.decay }
}

/// Which feed, how big, and (for lists) how many entries.
public struct FeedRequest: Sendable, Equatable {
    public var name: FeedName
    public var size: FeedSize
    /// Entries for list feeds (`recent`, `review`), or nil for the size's default.
    public var limit: Int?

    /// Creates a request.
    public init(_ name: FeedName, size: FeedSize = .medium, limit: Int? = nil) {
        self.name = name
        self.size = size
        self.limit = limit
    }
}
