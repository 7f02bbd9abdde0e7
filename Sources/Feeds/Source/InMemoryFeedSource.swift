/// A feed source held in memory: the twin of `SQLiteFeedSource` for tests and previews.
public struct InMemoryFeedSource: FeedSource, Sendable {
    public var settings: [String: String] = [:]
    public var memories: [FeedMemory] = []
    public var activityLog: [ActivityFact] = []
    public var sessions: [FeedSession] = []
    public var counts = CollectionCounts()

    /// Creates an empty source.
    public init(memories: [FeedMemory] = [], settings: [String: String] = [:], activityLog: [ActivityFact] = [],
                sessions: [FeedSession] = [], counts: CollectionCounts = CollectionCounts()) {
        self.memories = memories
        self.settings = settings
        self.activityLog = activityLog
        self.sessions = sessions
        self.counts = counts
    }

    public func setting(_ key: String) throws -> String? { settings[key] }

    public func memoryFacts() throws -> [MemoryFacts] { memories.map(\.facts) }

    public func memories(ids: [String]) throws -> [FeedMemory] {
        ids.compactMap { id in memories.first { $0.id == id } }
    }

    public func activities(since: Double) throws -> [ActivityFact] {
        activityLog.filter { $0.at >= since }.sorted { $0.at < $1.at }
    }

    public func lastUse(of id: String, before: Double) throws -> Double? {
        activityLog.filter { $0.memoryID == id && $0.at < before }.map(\.at).max()
    }

    public func activeSession() throws -> FeedSession? {
        sessions.filter { $0.state == .running || $0.state == .paused }.max { $0.started < $1.started }
    }

    public func collectionCounts() throws -> CollectionCounts { counts }
}
