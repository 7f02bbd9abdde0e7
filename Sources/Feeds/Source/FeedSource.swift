/// Where feeds read from: the store on disk, or an in-memory twin in tests.
///
/// Every method is a read; a source never writes. Lists come back in a stable order.
public protocol FeedSource {
    /// Runs `body` so that every read inside it sees one consistent state.
    func read<T>(_ body: () throws -> T) throws -> T
    /// A stored setting (`context`, …), or nil.
    func setting(_ key: String) throws -> String?
    /// Every memory, without its text.
    func memoryFacts() throws -> [MemoryFacts]
    /// The memories with these ids, with their text, in the order asked (unknown ids skipped).
    func memories(ids: [String]) throws -> [FeedMemory]
    /// Uses and pins logged at or after `since`, oldest first.
    func activities(since: Double) throws -> [ActivityFact]
    /// The last use or pin of memory `id` strictly before `before`, or nil.
    func lastUse(of id: String, before: Double) throws -> Double?
    /// The active (running or paused) session, newest first, or nil.
    func activeSession() throws -> FeedSession?
    /// Counts of links, curricula and topics.
    func collectionCounts() throws -> CollectionCounts
}

extension FeedSource {
    /// Runs `body` as is: sources without transactions are consistent already.
    public func read<T>(_ body: () throws -> T) throws -> T { try body() }
}

/// Why a feed could not read the store; the message says what to do.
public struct FeedSourceError: Error, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable { case missing, unreadable }
    public var kind: Kind
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
