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
    /// The newest active (running or paused) session, or nil; a capture whose recorded host process has died
    /// is not active (nothing has ended it in the store yet).
    func activeSession() throws -> FeedSession?
    /// Counts of links, curricula and topics.
    func collectionCounts() throws -> CollectionCounts
    /// The memories with these ids, without their text, in the order asked (unknown ids skipped).
    func memoryFacts(ids: [String]) throws -> [MemoryFacts]
    /// The groups of memories that share a type, use count and pin, or nil when the source cannot list
    /// them cheaply (no index): callers then read `memoryFacts()`.
    func fadingGroups() throws -> [FadingGroup]?
    /// The memories of `group` (in `context` when given, created before `createdBefore` when given) last
    /// reinforced at or after `from` (when given) and before `before`, oldest reinforcement first, then
    /// by id, passed to `body` until it returns false; with `after`, only those reinforced strictly later than
    /// it (a last reinforcement `body` was given). Links are not counted (0); tags are not read.
    func scan(_ group: FadingGroup, context: String?, createdBefore: Double?, from: Double?, before: Double, after: Double?,
              _ body: (MemoryFacts) -> Bool) throws
    /// The memories (in `context` when given, created before `createdBefore` when given) last reinforced at
    /// or after `instant`, in no particular order. Links are not counted (0); tags are not read.
    func reinforced(since instant: Double, context: String?, createdBefore: Double?) throws -> [MemoryFacts]
    /// Whether any memory (in `context` when given) was created before `instant`.
    func hasMemory(createdBefore instant: Double, context: String?) throws -> Bool
    /// The newest memories (by creation, then id, newest first) in `context` when given, at most `limit`.
    func newestFacts(context: String?, limit: Int) throws -> [MemoryFacts]
}

/// Memories that share a type, use count and pin: within one, the forgetting curve orders them by their
/// last reinforcement alone.
public struct FadingGroup: Sendable, Equatable {
    /// The store's `type` text.
    public var type: String
    public var useCount: Int
    /// The store's `pinned` value.
    public var pinned: Int

    /// Creates a group.
    public init(type: String, useCount: Int, pinned: Int) {
        self.type = type
        self.useCount = useCount
        self.pinned = pinned
    }
}

extension FeedSource {
    /// Runs `body` as is: sources without transactions are consistent already.
    public func read<T>(_ body: () throws -> T) throws -> T { try body() }

    /// Picks them out of every memory.
    public func memoryFacts(ids: [String]) throws -> [MemoryFacts] {
        let all = try memoryFacts()
        return ids.compactMap { id in all.first { $0.id == id } }
    }

    /// None: callers read every memory.
    public func fadingGroups() throws -> [FadingGroup]? { nil }

    /// Nothing: only called with a group from `fadingGroups()`, which lists none here.
    public func scan(_ group: FadingGroup, context: String?, createdBefore: Double?, from: Double?, before: Double, after: Double?,
                     _ body: (MemoryFacts) -> Bool) throws {}

    /// None: only called after `fadingGroups()`, which lists none here.
    public func reinforced(since instant: Double, context: String?, createdBefore: Double?) throws -> [MemoryFacts] { [] }

    /// Looks through every memory.
    public func hasMemory(createdBefore instant: Double, context: String?) throws -> Bool {
        try memoryFacts().contains { $0.created < instant && (context == nil || $0.context == context) }
    }

    /// Sorts every memory.
    public func newestFacts(context: String?, limit: Int) throws -> [MemoryFacts] {
        Array(try memoryFacts().filter { context == nil || $0.context == context }
            .sorted { $0.created != $1.created ? $0.created > $1.created : $0.id > $1.id }.prefix(limit))
    }
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
