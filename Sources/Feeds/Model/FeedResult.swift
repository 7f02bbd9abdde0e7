/// A feed's answer: what it shows (`view`) and the data behind it (`payload`, for JSON).
public struct FeedResult: Sendable, Equatable {
    public var feed: FeedName
    public var size: FeedSize
    public var state: FeedState
    /// The active context, or nil for everything.
    public var context: String?
    /// Seconds since 1970 when the feed was computed.
    public var generated: Double
    /// A sentence for quiet and error states (why nothing shows), or nil.
    public var message: String?
    public var view: FeedView
    public var payload: FeedPayload

    /// Creates a result.
    public init(feed: FeedName, size: FeedSize, state: FeedState, context: String?, generated: Double,
                message: String? = nil, view: FeedView, payload: FeedPayload) {
        self.feed = feed
        self.size = size
        self.state = state
        self.context = context
        self.generated = generated
        self.message = message
        self.view = view
        self.payload = payload
    }
}

/// The data a feed is about, per feed.
public enum FeedPayload: Sendable, Equatable {
    /// Nothing (quiet and error states).
    case none
    /// `motd`: the memory of the day, or nil when there is none.
    case memory(MemoryDetail?)
    /// `recent`: the newest memories.
    case memories([MemoryDetail])
    /// `stats`.
    case stats(MemoryStats)
    /// `session`: the active session, or nil when idle.
    case session(SessionDetail?)
    /// `review`: the counts and the memories due.
    case review(ReviewSummary, [MemoryDetail])
}

/// A memory with what decay says about it now.
public struct MemoryDetail: Sendable, Equatable {
    public var memory: FeedMemory
    /// The decay score now, 0…1.
    public var strength: Double
    /// When it leaves search, or nil (pinned).
    public var expires: Double?
    /// Whether it has left search already.
    public var faded: Bool

    /// Computes the detail of `memory` at `now`.
    init(_ memory: FeedMemory, decay: DecayModel, now: Double) {
        self.memory = memory
        strength = decay.score(of: memory.facts, at: now)
        expires = decay.expiry(of: memory.facts)
        faded = expires.map { $0 <= now } ?? false
    }

    /// Whole days before it fades (0 on its last day, negative once faded), or nil if pinned.
    func daysLeft(at now: Double) -> Int? {
        expires.map { Int(saturating: (($0 - now) / 86_400).rounded(.down)) }
    }
}

/// The active session with its running time.
public struct SessionDetail: Sendable, Equatable {
    public var session: FeedSession
    /// Seconds spent running so far.
    public var elapsed: Double
}

/// Counts for the review feed.
public struct ReviewSummary: Sendable, Equatable {
    /// Memories fading from search within seven days.
    public var due: Int
    /// Distinct memories opened, activated or reviewed today.
    public var reviewedToday: Int
    /// Memories already faded from search.
    public var faded: Int
}
