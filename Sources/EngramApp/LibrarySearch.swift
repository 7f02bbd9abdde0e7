import EngramCore
import Foundation
import Indexer

/// Search results as front ends show them.
public struct LibrarySearchResult: Sendable {
    /// Hits best first: from the index, and with `includeFaded` also the memories already swept from it.
    public var hits: [SearchHit]
    /// The ids of the memory hits that have faded from search (found only because faded memories were asked for).
    public var fadedIDs: Set<String>
    public var estimatedTotal: Int
    /// "Did you mean …" — offered, never applied.
    public var suggestion: String?
    /// A remark about how the query was read, or that new captures are still being indexed.
    public var notice: String?
}

extension Library {
    /// Searches for `query` as `surface` does, through the one rule (`searchRequest`: config, clock, active context);
    /// `configure` adjusts the request (kinds, a date range, the decay weight). While the `sleep` context is on,
    /// nothing is found and the notice says why.
    public func search(_ query: String, for surface: SearchSurface, includeFaded: Bool = false,
                       configure: (inout SearchRequest) -> Void = { _ in }) throws -> LibrarySearchResult {
        guard var request = try searchRequest(query, for: surface) else {
            return LibrarySearchResult(hits: [], fadedIDs: [], estimatedTotal: 0, suggestion: nil, notice: Self.sleepNotice)
        }
        configure(&request)
        return try search(request, includeFaded: includeFaded)
    }

    /// Runs a request made by `searchRequest` (its context already applied); with `includeFaded`, also the memories
    /// that have faded and were swept from the index.
    ///
    /// Swept memories are indexed into a private temporary database by the same document building as the
    /// index and searched together with it as one collection, so they match exactly as indexed ones would
    /// and are ranked against them.
    public func search(_ request: SearchRequest, includeFaded: Bool = false, applyFirst: Bool = true) throws -> LibrarySearchResult {
        var notices: [String] = []
        var busy = false
        if applyFirst {
            do {
                // .busy: another process (usually the daemon) holds the writer and indexes new captures itself.
                busy = try applyPending() == .busy
                if !busy { try embedPending(upTo: Self.inlineEmbedLimit) }
            } catch {
                // Searching reads what is indexed: a full disk or a failing write must not stop it.
                notices.append("new changes could not be indexed yet (\(error)); searching what is indexed")
            }
        }
        var req = request
        if includeFaded { req.includeExpired = true }
        var reader = try openReader { notices.append($0) }
        if busy, let waiting = try? store.pendingOutboxCount(after: reader.lastAppliedSeq()), waiting > 0 {
            notices.append(waiting == 1
                ? "1 change is waiting to be indexed (another process holds the index); results may be missing it"
                : "\(waiting) changes are waiting to be indexed (another process holds the index); results may be missing them")
        }
        var swept: SweptIndex?
        defer { swept?.remove() }
        if includeFaded && req.kinds.contains(.memory) {
            let gone = try store.fadedMemories(at: req.now, decay: config.decay).filter { try !reader.contains(kind: .memory, id: $0.id) }
            swept = try SweptIndex.build(gone, decay: config.decay, under: paths.temporaryDirectory)
            if let swept { try reader.add(databaseAt: swept.path) }
        }
        let r: SearchResults
        let meaning = meaningSearch()
        do {
            r = try reader.search(req, meaning: meaning)
        } catch let error where Self.isDamage(error, opening: true) {
            // Damage found only when reading (a table overwritten): rebuild from the store and search again.
            notices.append("the search index is damaged (\(error)); rebuilt it from the store")
            try rebuild()
            reader = try openReader()
            if let swept { try reader.add(databaseAt: swept.path) }
            r = try reader.search(req, meaning: meaning)
        }
        if let n = r.notice { notices.append(n) }
        var seen = Set<String>()
        let hits = r.hits.filter { seen.insert($0.kind.rawValue + ":" + $0.id).inserted }
        let faded = hits.filter { $0.kind == .memory && ($0.expiry.map { $0 <= req.now } ?? false) }.map(\.id)
        return LibrarySearchResult(hits: hits, fadedIDs: includeFaded ? Set(faded) : [], estimatedTotal: r.estimatedTotal,
                                   suggestion: r.suggestion, notice: notices.isEmpty ? nil : notices.joined(separator: "; "))
    }

    /// Related memories, from the index's relevance feedback, with the person's links first.
    ///
    /// Like search, it shows the active context's memories and those without a context; `sleep` shows none.
    public func related(to id: String, limit: Int) throws -> [(memory: Memory, score: Double, linked: Bool)] {
        _ = try store.requireMemory(id: id)
        let ctx = try store.activeContext()
        if ctx == "sleep" { return [] }
        let shown = { (m: Memory) in ctx == nil || m.context == nil || m.context == ctx }
        let links = try store.links(of: id)
        var out: [(Memory, Double, Bool)] = []
        var seen: Set<String> = [id]
        for l in links {
            let other = l.other(than: id)
            if seen.insert(other).inserted, let m = try store.memory(id: other), shown(m) { out.append((m, l.weight, true)) }
        }
        let reader = try openReader()
        // Ask for more than needed: some may be outside the context.
        let extra = ctx == nil ? 0 : 4 * limit
        let byWords = try reader.related(kind: .memory, id: id, limit: limit + out.count + extra, now: store.clock())
        // Shared words and meaning fused by rank (as search fuses them); the person's links stay first.
        var fused: [String: Double] = [:]
        var scores: [String: Double] = [:]
        for (rank, hit) in byWords.enumerated() {
            // Weighted by how alike the words make them: a 7 % neighbour by words is no match for one by meaning.
            fused[hit.id, default: 0] += hit.score / (IndexReader.fusionK + Double(rank + 1))
            scores[hit.id] = hit.score
        }
        if let meaning = meaningSearch() {
            for (rank, n) in try meaning.neighbours(ofItem: "memory:" + id, limit: limit + out.count + extra).enumerated()
            where n.kind == .memory {
                fused[n.id, default: 0] += 1 / (IndexReader.fusionK + Double(rank + 1))
                scores[n.id] = max(scores[n.id] ?? 0, Double(n.score))
            }
        }
        for other in fused.keys.sorted(by: { (fused[$0]!, $1) > (fused[$1]!, $0) }) where out.count < limit {
            if seen.insert(other).inserted, let m = try store.memory(id: other), shown(m), !config.decay.isExpired(m, at: store.clock()) {
                out.append((m, scores[other] ?? 0, false))
            }
        }
        return Array(out.prefix(limit)).map { (memory: $0.0, score: $0.1, linked: $0.2) }
    }

    /// The index's state, compared with the store.
    public func status() throws -> IndexStatus {
        let storeIDs = try store.memoryIDs()
        var status = IndexStatus(path: paths.indexPath)
        status.storeMemories = storeIDs.count
        guard indexExists else {
            status.pending = try store.pendingOutboxCount(after: 0)
            status.unindexed = storeIDs.count
            return status
        }
        let reader = try IndexReader.open(at: paths.indexPath)
        status.exists = true
        status.lastAppliedSeq = try reader.lastAppliedSeq()
        status.pending = try store.pendingOutboxCount(after: status.lastAppliedSeq)
        status.documents = try reader.documentCount(kind: nil)
        status.memories = try reader.documentCount(kind: .memory)
        status.curricula = try reader.documentCount(kind: .curriculum)
        status.topics = try reader.documentCount(kind: .topic)
        let missing = Set(storeIDs).subtracting(try reader.allIDs(kind: .memory))
        status.swept = try store.fadedMemories(at: store.clock(), decay: config.decay).filter { missing.contains($0.id) }.count
        status.unindexed = missing.count - status.swept
        status.meaning = try meaningStatus()
        return status
    }
}

/// The index's state, for `engram index status`.
public struct IndexStatus: Sendable, Codable, Equatable {
    public var exists = false
    /// Everything indexed: memories, curricula and topics.
    public var documents = 0
    public var memories = 0
    public var curricula = 0
    public var topics = 0
    /// Memories in the store.
    public var storeMemories = 0
    /// Memories in the store that have faded and were swept from the index (`search --all` still finds them).
    public var swept = 0
    /// Memories in the store not in the index for another reason: changes not indexed yet.
    public var unindexed = 0
    public var lastAppliedSeq: Int64 = 0
    /// Changes the index has yet to apply.
    public var pending = 0
    public var path: String
    /// Meaning search: on or why not, and how many items have vectors.
    public var meaning: MeaningStatus?

    /// An empty status for the index at `path`.
    public init(path: String) {
        self.path = path
    }
}
