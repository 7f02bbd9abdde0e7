/// A capture or learning session as the `session` feed shows it.
public struct FeedSession: Sendable, Equatable {
    /// What the session is for.
    public enum Kind: String, Sendable { case capture, learning }
    /// Where the session is in its life.
    public enum State: String, Sendable { case running, paused, stopped, completed }

    public var id: String
    public var kind: Kind
    public var title: String
    public var state: State
    /// Seconds since 1970.
    public var started: Double
    /// When the current running stretch began; nil while paused or ended.
    public var resumed: Double?
    /// Seconds accumulated over earlier running stretches.
    public var accumulatedSeconds: Double
    public var progressDone: Int
    public var progressTotal: Int
    public var curriculumID: String?
    public var topicID: String?

    /// Creates a session.
    public init(id: String, kind: Kind, title: String, state: State, started: Double, resumed: Double? = nil,
                accumulatedSeconds: Double = 0, progressDone: Int = 0, progressTotal: Int = 0,
                curriculumID: String? = nil, topicID: String? = nil) {
        self.id = id
        self.kind = kind
        self.title = title
        self.state = state
        self.started = started
        self.resumed = resumed
        self.accumulatedSeconds = accumulatedSeconds
        self.progressDone = progressDone
        self.progressTotal = progressTotal
        self.curriculumID = curriculumID
        self.topicID = topicID
    }

    /// Seconds spent running, up to `now` (as `Session.elapsed(at:)`).
    public func elapsed(at now: Double) -> Double {
        accumulatedSeconds + (resumed.map { max(0, now - $0) } ?? 0)
    }

    /// Progress as a whole percentage, 0 when there is nothing to count; any counts (a peer's, a corrupt row's)
    /// give 0–100 without overflowing.
    public var percentage: Int {
        guard progressTotal > 0 else { return 0 }
        let done = min(max(0, progressDone), progressTotal)
        let (scaled, overflow) = done.multipliedReportingOverflow(by: 100)
        return overflow ? Int(Double(done) / Double(progressTotal) * 100) : scaled / progressTotal
    }
}
