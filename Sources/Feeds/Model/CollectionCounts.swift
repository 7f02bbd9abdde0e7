/// Counts over the rest of the collection.
public struct CollectionCounts: Sendable, Equatable {
    public var links = 0
    public var curricula = 0
    public var topics = 0
    public var topicsDone = 0

    /// Creates counts.
    public init(links: Int = 0, curricula: Int = 0, topics: Int = 0, topicsDone: Int = 0) {
        self.links = links
        self.curricula = curricula
        self.topics = topics
        self.topicsDone = topicsDone
    }
}
