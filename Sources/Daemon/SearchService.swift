import EngramCore
import Foundation
import Indexer
import Logging

/// Answers the desktop's searches from one index reader on one serial queue, keeping the items of
/// recent result sets so GNOME Shell's metas and KRunner's actions are answered without searching again.
///
/// The reader reopens before each search, so it always sees the writer's latest commit.
final class SearchService: @unchecked Sendable {
    /// Who is asking: each has its own integration switch in config and its own result count.
    enum Client: String, Sendable {
        case gnome, krunner, dbus
    }

    /// The longest query accepted from the bus, in bytes; longer ones are refused with `InvalidArgs`.
    static let maxQueryBytes = 4096
    /// The most terms accepted in one GNOME Shell call.
    static let maxTerms = 64
    /// Items kept for metas lookups; the cache starts over when it grows past this.
    static let cacheLimit = 512

    private let library: Library
    private let log: Logger
    private let queue = DispatchQueue(label: "org.engram.daemon.search", qos: .userInitiated)
    // Confined to `queue`:
    private var reader: IndexReader?
    private var cache: [String: ResultItem] = [:]

    /// Called (off this queue's lock) when the index turns out to be missing or damaged while searching.
    private let onDamage: @Sendable (String) -> Void

    init(library: Library, log: Logger, onDamage: @escaping @Sendable (String) -> Void = { _ in }) {
        self.library = library
        self.log = log
        self.onDamage = onDamage
    }

    /// Runs `body` on the search queue and hands its outcome to `done` there.
    func run<T: Sendable>(_ body: @escaping @Sendable (SearchService) throws -> T,
                          done: @escaping @Sendable (Result<T, any Error>) -> Void) {
        queue.async {
            done(Result { try body(self) })
        }
    }

    /// Runs `body` on the search queue and waits for it (tests and shutdown).
    func sync<T>(_ body: (SearchService) throws -> T) rethrows -> T {
        try queue.sync { try body(self) }
    }

    // MARK: On the queue

    /// Searches as the user types (the last word is a prefix) and remembers the items for `item(for:)`.
    ///
    /// Returns nothing when the integration is switched off in config or the `sleep` context is on.
    func search(_ text: String, limit: Int, client: Client) throws -> [ResultItem] {
        dispatchPrecondition(condition: .onQueue(queue))
        let start = ContinuousClock.now
        guard text.utf8.count <= Self.maxQueryBytes else {
            throw DaemonError.invalidArgs("the search is \(text.utf8.count) bytes long; the limit is \(Self.maxQueryBytes)")
        }
        if client != .dbus, library.config.disabledIntegrations.contains(client.rawValue) { return [] }
        guard !text.allSatisfy(\.isWhitespace) else { return [] }
        let store = library.store
        let context = try store.activeContext()
        if context == "sleep" { return [] }

        var request = SearchRequest(query: text)
        request.partial = true
        request.limit = limit
        request.decayWeight = library.config.searchDecayWeight
        request.now = store.clock()
        request.context = context
        request.snippetLength = 120
        let hits: [SearchHit]
        do {
            hits = try openReader().search(request).hits
        } catch let error where Library.isDamage(error, opening: true) {
            // The index writer repairs it; this search fails, the next ones find the rebuilt index.
            log.warning("the search index is missing or damaged; asking for a rebuild", metadata: ["error": "\(error)"])
            reader = nil
            onDamage("\(error)")
            throw error
        }

        let memories = try store.memories(ids: hits.filter { $0.kind == .memory }.map(\.id))
        let byID = Dictionary(memories.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var curriculumTitles: [String: String] = [:]
        for id in Set(hits.filter { $0.kind == .topic }.compactMap(\.curriculumID)) {
            curriculumTitles[id] = try store.curriculum(id: id)?.title
        }
        let items = hits.map { hit in
            ResultItem.from(hit: hit, memory: hit.kind == .memory ? byID[hit.id] : nil,
                            curriculumTitle: hit.kind == .topic ? hit.curriculumID.flatMap { curriculumTitles[$0] } : nil)
        }
        remember(items)
        log.debug("searched", metadata: ["from": "\(client.rawValue)", "hits": "\(items.count)", "ms": "\(IndexKeeper.ms(since: start))"])
        return items
    }

    /// The item for an id: from recent results, else from the store, else a clear placeholder.
    func item(for id: String) -> ResultItem {
        dispatchPrecondition(condition: .onQueue(queue))
        if let cached = cache[id] { return cached }
        let item = (try? lookUp(id)) ?? ResultItem.unknown(id: id)
        if item.isKnown { remember([item]) }
        return item
    }

    /// Forgets the cached item of `id` (after it changed, e.g. pinned), so the next lookup reads the store.
    func invalidate(_ id: String) {
        dispatchPrecondition(condition: .onQueue(queue))
        cache[id] = nil
    }

    /// Drops every cached item (KRunner's Teardown, a rebuild).
    func clearCache() {
        dispatchPrecondition(condition: .onQueue(queue))
        cache = [:]
    }

    /// Closes the reader (before a shutdown).
    func closeReader() {
        dispatchPrecondition(condition: .onQueue(queue))
        reader = nil
    }

    /// The reader, opened on first use and moved to the latest commit each time.
    private func openReader() throws -> IndexReader {
        if let reader {
            do {
                try reader.reopen()
                return reader
            } catch {
                log.warning("the index reader could not reopen; opening it afresh", metadata: ["error": "\(error)"])
                self.reader = nil
            }
        }
        let fresh = try IndexReader.open(at: library.paths.indexPath)
        reader = fresh
        return fresh
    }

    private func remember(_ items: [ResultItem]) {
        if cache.count + items.count > Self.cacheLimit { cache = [:] }
        for item in items { cache[item.id] = item }
    }

    /// Builds the item for an id from the store; nil when the id names nothing.
    private func lookUp(_ id: String) throws -> ResultItem? {
        let store = library.store
        switch try DeepLink.parse(id) {
        case .memory(let memoryID):
            return try store.memory(id: memoryID).map(ResultItem.from(memory:))
        case .curriculum(let curriculumID):
            guard let c = try store.curriculum(id: curriculumID) else { return nil }
            return ResultItem.from(curriculum: c, topics: try store.topics(of: c.id).count)
        case .topic(let topicID):
            guard let t = try store.topic(id: topicID) else { return nil }
            return ResultItem.from(topic: t, curriculumTitle: try store.curriculum(id: t.curriculumID)?.title)
        default:
            return nil
        }
    }
}
