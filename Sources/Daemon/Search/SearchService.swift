import EngramCore
import Foundation
import EngramApp
import Indexer
import Intents
import Logging
import Meaning
import ServiceLifecycle

/// Answers the desktop's searches from one index reader on one serial queue, keeping the items of
/// recent result sets so GNOME Shell's metas and KRunner's actions are answered without searching again.
/// GNOME Shell asks for twenty ids and shows five, so its result sets keep the hits and read the store
/// only for the items whose metas it asks for.
///
/// The reader reopens before each search, so it always sees the writer's latest commit; the cached items are
/// dropped on every commit and store change (a capture or `engram forget` from another process), so metas and
/// KRunner actions never show what the store no longer has.
final class SearchService: Service, @unchecked Sendable {
    /// Who is asking: each has its own integration switch in config and its own result count.
    enum Client: String, Sendable {
        case gnome, krunner, dbus
    }

    /// The most terms accepted in one GNOME Shell call.
    static let maxTerms = 64
    /// Items kept for metas lookups; the cache starts over when it grows past this.
    static let cacheLimit = 512

    private let library: Library
    private let log: Logger
    private let events: LibraryEvents
    private let queue = DispatchQueue(label: "org.engram.daemon.search", qos: .userInitiated)
    /// Where a new question is embedded, so that neither the bus thread nor the search queue waits for it: a thread
    /// of its own, at full priority with every OpenMP thread (`WorkerThread`).
    private let questionQueue = WorkerThread(name: "org.engram.daemon.question-embedder", qualityOfService: .userInitiated)
    /// Embeds the word hits that have no vector yet for searches (`MeaningSearch.deferInterim`), in the background.
    private let interimThread = WorkerThread(name: "org.engram.daemon.hit-embedder", qualityOfService: .background)
    /// Only touched on `interimThread`.
    nonisolated(unsafe) private var interimThreadIsBackground = false
    // Confined to `queue`:
    private var reader: IndexReader?
    private var cache: [String: ResultItem] = [:]
    /// Hits of recent GNOME result sets whose items nobody has asked for yet.
    private var hitCache: [String: SearchHit] = [:]
    /// Memories' full text and pin read for recent metas, by item id. The next keystroke's hits are mostly the same
    /// memories with new snippets: their metas are then made without a store read (some 75 µs of GRDB and SQLite per
    /// five memories, a quarter of a GetResultMetas). Dropped with the items: a commit, a store change, a pin.
    private var memoryTexts: [String: (content: String, pinned: Bool)] = [:]
    private var meaningSearch: MeaningSearch?
    /// When meaning search was last found unavailable (off, or nothing embedded yet): asked again after a while,
    /// not on every keystroke.
    private var meaningCheckedAt: ContinuousClock.Instant?
    /// The active context as last read, and the store files' state then: unchanged files, unchanged setting.
    private var contextCache: (files: [[Int64]], context: String?)?

    /// Called when the index turns out to be missing or damaged while searching (the keeper repairs it).
    private let onDamage: @Sendable (String) -> Void
    /// The index's change count while this process holds its only writer, else nil (`IndexKeeper.changeStamp`).
    private let indexStamp: @Sendable () -> UInt64?
    /// The change count the reader was last brought up to, if it was read while this process held the writer.
    private var readerStamp: UInt64?

    init(library: Library, log: Logger, events: LibraryEvents, indexStamp: @escaping @Sendable () -> UInt64? = { nil },
         onDamage: @escaping @Sendable (String) -> Void) {
        self.library = library
        self.log = log
        self.events = events
        self.indexStamp = indexStamp
        self.onDamage = onDamage
    }

    /// Drops cached items after every commit and store change until the daemon stops; then closes the reader.
    func run() async throws {
        let changes = events.subscribe(to: [.committed, .storeChanged])
        for await _ in changes.cancelOnGracefulShutdown() { run({ $0.clearCache() }) { _ in } }
        sync { $0.closeReader() }
    }

    /// Runs `body` on the search queue and hands its outcome to `done` there.
    func run<T: Sendable>(_ body: @escaping @Sendable (SearchService) throws -> T,
                          done: @escaping @Sendable (Result<T, any Error>) -> Void) {
        queue.async {
            done(Result { try body(self) })
        }
    }

    /// Runs `body` on the calling thread while holding the search queue, and hands its outcome to `done`: the bus
    /// thread answers the desktop's searches itself. Handing each call to the queue's thread and the reply back to
    /// the bus thread cost two thread wake-ups per call, a fifth of the daemon's CPU per provider round trip
    /// (docs/performance.md). Nothing run here makes a D-Bus call, so the bus thread never waits on itself.
    func answer<T>(_ body: (SearchService) throws -> T, done: (Result<T, any Error>) -> Void) {
        done(Result { try queue.sync { try body(self) } })
    }

    /// Answers a search for `text` as `answer` does, unless meaning search needs the question embedded first (some
    /// 20-30 ms on two cores): then the embedding runs on its own queue, the search follows on the search queue and
    /// `done` replies from there. The bus thread and the search queue go on answering other callers meanwhile,
    /// instead of every call queueing behind a new question's embedding.
    func answerSearch<T: Sendable>(_ text: String, _ body: @escaping @Sendable (SearchService) throws -> T,
                                   done: @escaping @Sendable (Result<T, any Error>) -> Void) {
        guard let (meaning, question) = queue.sync(execute: { self.questionToEmbed(text) }) else {
            answer(body, done: done)
            return
        }
        let answered = Once()
        questionQueue.async {
            // The same question asked again meanwhile (a shell repeating a search) is embedded once.
            let needed = self.queue.sync { !meaning.hasVector(for: question) }
            let start = ContinuousClock.now
            let vector = needed ? try? meaning.embedder.embed([question], as: .query).first : nil
            if needed { self.log.debug("embedded a question", metadata: ["ms": "\(IndexKeeper.ms(since: start))"]) }
            self.queue.async {
                if let vector { meaning.keep(vector, for: question) }  // a failure: the search says why, words only
                if answered.claim() { done(Result { try body(self) }) }
            }
        }
        // A busy machine (a flood of captures, a build) slows a question's embedding two- or threefold: with a deadline
        // set, past it the search answers with the vector of the question typed so far (`MeaningSearch.standIn`), or
        // by words; the vector, kept when it is made, serves the next keystrokes.
        guard let deadline = Self.busyQuestionDeadline, !E5Embedder.coresAreFree() else { return }
        queue.asyncAfter(deadline: .now() + deadline) {
            guard answered.claim() else { return }
            meaning.embedsQuestions = false
            defer { meaning.embedsQuestions = true }
            self.log.debug("answered a question before its embedding: the machine is busy",
                           metadata: ["stand-in": "\(meaning.standIn(for: question) != nil)"])
            done(Result { try body(self) })
        }
    }

    /// How long a search waits for its question's embedding on a busy machine, when `ENGRAM_BUSY_DEADLINE_MS` sets
    /// one; by default it waits for every embedding. 8 ms kept the provider's p99 at 18 ms during `make stress`'s
    /// flood of 2,000 captures (31 ms waiting), but the shell asks once per keystroke and never again: the last
    /// keystroke's answer came before its question's vector, and GNOME Shell's own test ("why does my container keep
    /// rebooting", typed while the shell drew) showed that question's rows without what meaning finds.
    static let busyQuestionDeadline: DispatchTimeInterval? = {
        let ms = ProcessInfo.processInfo.environment["ENGRAM_BUSY_DEADLINE_MS"].flatMap { Int($0) } ?? 0
        return ms > 0 ? .milliseconds(ms) : nil
    }()

    /// Whichever of a search's two ways to answer comes first (both run on the search queue).
    private final class Once: @unchecked Sendable {
        private var done = false
        func claim() -> Bool {
            if done { return false }
            done = true
            return true
        }
    }

    /// The question a search for `text` would embed, when its vector is not at hand (as `searchHits` will ask).
    private func questionToEmbed(_ text: String) -> (MeaningSearch, String)? {
        dispatchPrecondition(condition: .onQueue(queue))
        // Meaning first: while it is off (no model, nothing embedded yet) a keystroke is not read as a question.
        guard text.utf8.count <= Limits.maxQueryBytes, let meaning = meaning(),
              let question = QueryShape.meaningText(text, partial: true), !meaning.hasVector(for: question) else { return nil }
        return (meaning, question)
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
        let items = try makeItems(for: try searchHits(text, limit: limit, client: client))
        remember(items)
        return items
    }

    /// Searches as `search` does but answers only the ids, as GNOME Shell's result sets want: the hits are
    /// kept, and their items (which read the store) are made by `items(for:)` for the few the shell shows.
    func searchIDs(_ text: String, limit: Int, client: Client) throws -> [String] {
        dispatchPrecondition(condition: .onQueue(queue))
        let hits = try searchHits(text, limit: limit, client: client)
        if hitCache.count + cache.count + hits.count > Self.cacheLimit { forgetAll() }
        return hits.map { hit in
            let id = hit.link.url
            cache[id] = nil  // its description is the snippet of this search, not of an earlier one
            // Hits past the five shown carry only their id; if the shell asks for their metas, the store answers.
            hitCache[id] = hit.isComplete ? hit : nil
            return id
        }
    }

    /// The items for ids, in order: each from recent results, else from the store, else a clear placeholder.
    /// Memories among recent hits are read from the store together.
    func items(for ids: [String]) -> [ResultItem] {
        dispatchPrecondition(condition: .onQueue(queue))
        let pending = ids.filter { cache[$0] == nil }.compactMap { hitCache[$0] }
        if !pending.isEmpty, let made = try? makeItems(for: pending) {
            remember(made)
        }
        return ids.map(item(for:))
    }

    /// Runs the search for `search` and `searchIDs`.
    private func searchHits(_ text: String, limit: Int, client: Client) throws -> [SearchHit] {
        dispatchPrecondition(condition: .onQueue(queue))
        let start = ContinuousClock.now
        guard text.utf8.count <= Limits.maxQueryBytes else {
            throw DaemonError.invalidArgs("the search is \(text.utf8.count) bytes long; the limit is \(Limits.maxQueryBytes)")
        }
        if client != .dbus, library.config.disabledIntegrations.contains(client.rawValue) { return [] }
        guard !text.allSatisfy(\.isWhitespace),
              var request = try library.searchRequest(text, for: .desktop(limit: limit), activeContext: .some(activeContext())) else {
            return []
        }
        if client == .gnome {
            request.snippetCount = Self.gnomeShownResults
            request.detailCount = Self.gnomeShownResults
        }
        let hits: [SearchHit]
        do {
            hits = try openReader().search(request, meaning: meaning()).hits
        } catch let error where Library.isDamage(error, opening: true) {
            // The index writer repairs it; this search fails, the next ones find the rebuilt index.
            log.warning("the search index is missing or damaged; asking for a rebuild", metadata: ["error": "\(error)"])
            reader = nil
            onDamage("\(error)")
            throw error
        }
        log.debug("searched", metadata: ["from": "\(client.rawValue)", "hits": "\(hits.count)", "ms": "\(IndexKeeper.ms(since: start))"])
        return hits
    }

    /// The items for hits: memories' full text and pin, and topics' curriculum titles, read from the store.
    private func makeItems(for hits: [SearchHit]) throws -> [ResultItem] {
        let store = library.store
        let memoryHits = hits.filter { $0.kind == .memory }
        let unread = memoryHits.filter { memoryTexts[$0.link.url] == nil }
        if !unread.isEmpty {
            let read = try store.memoryTexts(ids: unread.map(\.id))
            if memoryTexts.count + read.count > Self.cacheLimit { memoryTexts = [:] }
            for hit in unread { memoryTexts[hit.link.url] = read[hit.id] }
        }
        var curriculumTitles: [String: String] = [:]
        for id in Set(hits.filter { $0.kind == .topic }.compactMap(\.curriculumID)) {
            curriculumTitles[id] = try store.curriculum(id: id)?.title
        }
        return hits.map { hit in
            let text = hit.kind == .memory ? memoryTexts[hit.link.url] : nil
            return ResultItem.from(hit: hit, content: text?.content, pinned: text?.pinned ?? false,
                            curriculumTitle: hit.kind == .topic ? hit.curriculumID.flatMap { curriculumTitles[$0] } : nil)
        }
    }

    /// The intent `text` phrases, if it is a command from the catalog (or the person's own phrases); nil when it is
    /// not, or when the client's integration is switched off.
    func command(for text: String, client: Client) -> IntentInvocation? {
        dispatchPrecondition(condition: .onQueue(queue))
        if client != .dbus, library.config.disabledIntegrations.contains(client.rawValue) { return nil }
        guard text.utf8.count <= Limits.maxQueryBytes else { return nil }
        return try? IntentRunner(library: library, source: client.rawValue).matcher().match(text)
    }

    /// The item for an id: from recent results, else from the store, else a clear placeholder.
    func item(for id: String) -> ResultItem {
        dispatchPrecondition(condition: .onQueue(queue))
        if let cached = cache[id] { return cached }
        if let hit = hitCache[id], let made = try? makeItems(for: [hit]).first {
            remember([made])
            return made
        }
        let item = (try? lookUp(id)) ?? ResultItem.unknown(id: id)
        if item.isKnown { remember([item]) }
        return item
    }

    /// Forgets the cached item of `id` (after it changed, e.g. pinned), so the next lookup reads the store.
    func invalidate(_ id: String) {
        dispatchPrecondition(condition: .onQueue(queue))
        cache[id] = nil
        hitCache[id] = nil
        memoryTexts[id] = nil
    }

    /// Drops every cached item and the active context (after a commit or a store change).
    func clearCache() {
        dispatchPrecondition(condition: .onQueue(queue))
        forgetAll()
        contextCache = nil
    }

    /// Lets go of everything kept between searches: the cached items, the index reader (its open files and
    /// Xapian's caches) and the heap they freed. The next search opens the index again (KRunner's Teardown).
    func release() {
        dispatchPrecondition(condition: .onQueue(queue))
        forgetAll()
        reader = nil
        meaningSearch = nil
        Heap.releaseFreedMemory()
    }

    /// Closes the reader (before a shutdown).
    func closeReader() {
        dispatchPrecondition(condition: .onQueue(queue))
        reader = nil
    }

    /// Meaning search, made once vectors exist (its vectors follow the store's); while it is unavailable, looked for
    /// again every few seconds.
    private func meaning() -> MeaningSearch? {
        if let meaningSearch { return meaningSearch }
        if let checked = meaningCheckedAt, ContinuousClock.now - checked < .seconds(5) { return nil }
        meaningSearch = library.meaningSearch()
        // Word hits without a vector yet (a fresh import, a flood of captures) are embedded off the search's path, at
        // the lowest CPU priority on one core, and used by the searches after.
        meaningSearch?.deferInterim = { [weak self, weak meaningSearch] texts in
            guard let self, let meaning = meaningSearch else { return }
            self.interimThread.async {
                if !self.interimThreadIsBackground {
                    (meaning.embedder as? E5Embedder)?.runInBackground()
                    self.interimThreadIsBackground = true
                }
                guard let vectors = try? meaning.embedder.embed(texts.map(\.text), as: .passage) else { return }
                self.queue.async { for (t, v) in zip(texts, vectors) { meaning.keepInterim(t, vector: v) } }
            }
        }
        meaningCheckedAt = meaningSearch == nil ? .now : nil
        return meaningSearch
    }

    /// The active context, read again only when the store's files changed (a `stat` of two files instead of a read
    /// transaction per keystroke).
    private func activeContext() throws -> String? {
        let files = [library.paths.storePath, library.paths.storePath + "-wal"].map(FolderWatch.fingerprint)
        if let contextCache, contextCache.files == files { return contextCache.context }
        let context = try library.store.activeContext()
        contextCache = (files, context)
        return context
    }

    /// How many results GNOME Shell shows of the ids it asks for (`MAX_LIST_SEARCH_RESULTS_ROWS` in its search.js):
    /// only these get snippets when searching; metas of the others describe them by type, tags and date.
    static let gnomeShownResults = 5

    /// The reader, opened on first use and moved to the latest commit each time. While the daemon holds the only
    /// writer and has changed nothing since (`indexStamp`), the reader is current without asking Xapian (a reopen
    /// reads the index's version files: some 4% of the daemon's CPU per GNOME Shell round trip).
    private func openReader() throws -> IndexReader {
        let stamp = indexStamp()  // before the reopen: a change made meanwhile moves it on, and the next search reopens
        if let reader {
            if let stamp, stamp == readerStamp { return reader }
            do {
                try reader.reopen()
                readerStamp = stamp
                return reader
            } catch {
                log.warning("the index reader could not reopen; opening it afresh", metadata: ["error": "\(error)"])
                self.reader = nil
            }
        }
        let fresh = try IndexReader.open(at: library.paths.indexPath)
        reader = fresh
        readerStamp = stamp
        return fresh
    }

    private func remember(_ items: [ResultItem]) {
        if cache.count + hitCache.count + items.count > Self.cacheLimit { forgetAll() }
        for item in items {
            cache[item.id] = item
            hitCache[item.id] = nil
        }
    }

    private func forgetAll() {
        cache = [:]
        hitCache = [:]
        memoryTexts = [:]
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
