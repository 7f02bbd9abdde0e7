import EngramCore
import Foundation

/// Search results as front ends show them.
public struct LibrarySearchResult: Sendable {
    /// Hits from the index, best first.
    public var hits: [SearchHit]
    /// Memories that have faded from the index but match (only with `includeFaded`).
    public var faded: [Memory]
    public var estimatedTotal: Int
    /// "Did you mean …" — offered, never applied.
    public var suggestion: String?
    /// A remark about how the query was read, or that new captures are still being indexed.
    public var notice: String?
}

extension Library {
    /// Searches the index; with `includeFaded`, also scans the store for matching memories already swept from it.
    public func search(_ request: SearchRequest, includeFaded: Bool = false, applyFirst: Bool = true) throws -> LibrarySearchResult {
        var notices: [String] = []
        if applyFirst {
            do {
                // .busy: the daemon holds the writer and will index new captures in a moment.
                _ = try applyPending()
            } catch {
                // Searching reads what is indexed: a full disk or a failing write must not stop it.
                notices.append("new changes could not be indexed yet (\(error)); searching what is indexed")
            }
        }
        var req = request
        if req.context == nil, let ctx = try store.activeContext(), ctx != "sleep" { req.context = ctx }
        if try store.activeContext() == "sleep" {
            return LibrarySearchResult(hits: [], faded: [], estimatedTotal: 0, suggestion: nil,
                                       notice: "the sleep context is on: nothing is shown. `engram context clear` turns it off.")
        }
        var reader = try openReader { notices.append($0) }
        let r: SearchResults
        do {
            r = try reader.search(req)
        } catch let error where Self.isDamage(error, opening: true) {
            // Damage found only when reading (a table overwritten): rebuild from the store and search again.
            notices.append("the search index is damaged (\(error)); rebuilt it from the store")
            try rebuild()
            reader = try openReader()
            r = try reader.search(req)
        }
        if let n = r.notice { notices.append(n) }
        var faded: [Memory] = []
        if includeFaded {
            let shown = Set(r.hits.filter { $0.kind == .memory }.map(\.id))
            faded = try fadedMatches(words: Self.plainWords(request.query), limit: request.limit)
                .filter { !shown.contains($0.id) && (req.context == nil || $0.context == req.context) }
                .filter { (try? reader.contains(kind: .memory, id: $0.id)) == false }  // still indexed: the index already judged it
        }
        return LibrarySearchResult(hits: r.hits, faded: faded, estimatedTotal: r.estimatedTotal, suggestion: r.suggestion,
                                   notice: notices.isEmpty ? nil : notices.joined(separator: "; "))
    }

    /// The lowercased plain words of a query (field prefixes and operators dropped).
    static func plainWords(_ query: String) -> [String] {
        query.split(whereSeparator: { $0.isWhitespace }).map(String.init)
            .filter { !$0.contains(":") && !["AND", "OR", "NOT", "NEAR", "XOR"].contains($0) }
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"()+-*")).lowercased() }
            .filter { !$0.isEmpty }
    }

    /// Faded memories that hold every word (or, for words of four letters or more, a word starting with it).
    func fadedMatches(words: [String], limit: Int) throws -> [Memory] {
        guard !words.isEmpty else { return [] }
        let now = store.clock()
        return try store.allMemories().reversed().filter { m in
            guard config.decay.isExpired(m, at: now) else { return false }
            let have = Set(m.content.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init))
            return words.allSatisfy { w in have.contains(w) || (w.count >= 4 && have.contains { $0.hasPrefix(w) }) }
        }.prefix(limit).map { $0 }
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
        for hit in try reader.related(kind: .memory, id: id, limit: limit + out.count + extra) where out.count < limit {
            if seen.insert(hit.id).inserted, let m = try store.memory(id: hit.id), shown(m) { out.append((m, hit.score, false)) }
        }
        return Array(out.prefix(limit)).map { (memory: $0.0, score: $0.1, linked: $0.2) }
    }

    /// The index's state, compared with the store.
    public func status() throws -> IndexStatus {
        let storeCount = try store.memoryCount()
        guard indexExists else {
            return IndexStatus(exists: false, documents: 0, memories: 0, storeMemories: storeCount, lastAppliedSeq: 0,
                               pending: try store.pendingOutboxCount(after: 0), path: paths.indexPath)
        }
        let reader = try IndexReader.open(at: paths.indexPath)
        let seq = try reader.lastAppliedSeq()
        return IndexStatus(exists: true, documents: try reader.documentCount(kind: nil), memories: try reader.documentCount(kind: .memory),
                           storeMemories: storeCount, lastAppliedSeq: seq, pending: try store.pendingOutboxCount(after: seq),
                           path: paths.indexPath)
    }
}

/// The index's state, for `engram index status`.
public struct IndexStatus: Sendable, Codable, Equatable {
    public var exists: Bool
    public var documents: Int
    public var memories: Int
    public var storeMemories: Int
    public var lastAppliedSeq: Int64
    public var pending: Int
    public var path: String
}
