import EngramCore
import Foundation
import Indexer
import Meaning

/// Meaning search for one store: the embedder, the vectors in memory (reloaded when they change) and recent query
/// vectors. One per process (the daemon's search queue, a command); not for use from two threads at once.
public final class MeaningSearch: @unchecked Sendable {
    public let embedder: any Embedder
    fileprivate let store: Store
    private let cache: VectorCache
    private var recent: [String: [Float]] = [:]
    private var recentOrder: [String] = []
    /// Vectors made at query time for word hits not embedded yet, by `kind:id`, with their text's hash.
    fileprivate var interim: [String: (hash: String, vector: [Float])] = [:]
    fileprivate var interimOrder: [String] = []
    /// Texts handed to `deferInterim` and not kept yet (`kind:id` and hash), so each is asked for once.
    fileprivate var interimAsked: Set<String> = []

    /// A word hit's text to embed for `keepInterim`.
    public struct InterimText: Sendable {
        public let key: String
        public let hash: String
        public let text: String
    }

    /// When set (the daemon), word hits without a vector are not embedded on the search's thread: a search during a
    /// flood of captures would wait for them on a busy machine (the provider's p99 was 223 ms during `make stress`'s
    /// 2,000 captures). They are handed here, once each, and the searches after `keepInterim` use their vectors.
    public var deferInterim: (@Sendable ([InterimText]) -> Void)?

    /// Keeps a word hit's vector made elsewhere for `deferInterim`.
    public func keepInterim(_ text: InterimText, vector: [Float]) {
        interimAsked.remove(text.key + "#" + text.hash)
        if interim[text.key] == nil { interimOrder.append(text.key) }
        interim[text.key] = (text.hash, vector)
        while interimOrder.count > 256 { interim[interimOrder.removeFirst()] = nil }
    }

    /// How many neighbours are considered for fusion.
    public static let neighbourCount = 40
    /// Neighbours scoring more than this below the best one are left out: e5's scores bunch (0.75–0.85), so the
    /// cut is relative to the best, never a fixed value; weak neighbours then never flood a query.
    public static let relativeCutoff: Float = 0.07
    /// And a neighbour must be at least this similar to the question: a subject no memory mentions ("axolotl") or
    /// nonsense then finds nothing instead of the least unrelated memories. Read from data (`make bench`'s
    /// `bench.meaning_floor`, e5-small-q4): every judged answer to the 56 sample questions scores ≥ 0.837 and 97% of
    /// the Debian known-item answers ≥ 0.835 (most of the rest are found by their words), while the nearest memory
    /// of 21 of 27 absent-subject questions scores below it. e5-small cannot separate them all: the nearest memory
    /// of the other six reaches 0.836–0.856, as high as real answers.
    public static var absoluteFloor: Float { FusionWeights.current.floor }

    public init(store: Store, embedder: any Embedder) {
        self.store = store
        self.embedder = embedder
        self.cache = VectorCache(store: store, dimension: embedder.dimension)
    }

    /// The vectors in memory, brought up to the store's (only what changed is read).
    public func vectors() throws -> VectorIndex {
        try cache.current()
    }

    /// The query's vector (recent ones are kept); nil only while `embedsQuestions` is off and no kept question
    /// stands in for it.
    public func queryVector(_ query: String) throws -> [Float]? {
        if let v = recent[query] { return v }
        guard embedsQuestions else { return standIn(for: query) }
        let v = try embedder.embed([query], as: .query)[0]
        keep(v, for: query)
        return v
    }

    /// While false (the daemon answering past a question's deadline on a busy machine), a question is not embedded
    /// by the search: the vector of the longest kept question it extends word for word stands in for it (typing on,
    /// "why does my container keep" for "why does my container keep rebooting"), and without one meaning sits the
    /// search out.
    public var embedsQuestions = true

    /// The vector of the longest kept question that `query` extends by whole words, if any.
    public func standIn(for query: String) -> [Float]? {
        recentOrder.filter { query.hasPrefix($0 + " ") }.max { $0.count < $1.count }.flatMap { recent[$0] }
    }

    /// Whether the query's vector is at hand, so that searching for it embeds nothing.
    public func hasVector(for query: String) -> Bool {
        recent[query] != nil
    }

    /// Keeps a query's vector (made by `embedder` elsewhere, off the thread that searches) for its searches.
    public func keep(_ vector: [Float], for query: String) {
        guard recent[query] == nil else { return }
        recent[query] = vector
        recentOrder.append(query)
        if recentOrder.count > 64 { recent[recentOrder.removeFirst()] = nil }
    }

    /// The items nearest a stored item's own vector (itself left out), best first, within `relativeCutoff` of the best.
    public func neighbours(ofItem key: String, limit: Int) throws -> [(kind: IndexKind, id: String, score: Float)] {
        let index = try vectors()
        let parts = key.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, let kind = OutboxEntry.Kind(rawValue: parts[0]), let own = try store.vector(kind, parts[1]),
              let decoded = Vector.decode(own.data, dimension: embedder.dimension) else { return [] }
        let query = decoded.components.map { Float($0) * decoded.scale }
        let found = index.nearest(query, k: limit + 1).filter { $0.key != key }
        guard let best = found.first?.score else { return [] }
        return found.filter { $0.score >= best - Self.relativeCutoff }.compactMap { hit in
            let parts = hit.key.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, let kind = IndexKind(rawValue: String(parts[0])) else { return nil }
            return (kind, String(parts[1]), hit.score)
        }
    }

    /// The items nearest the query by meaning, best first, within `relativeCutoff` of the best and above
    /// `absoluteFloor`. Among `unembedded` (the best word hits), those the background pass has not reached yet (a
    /// fresh import) are embedded now, at most `interimPerQuery` (their first passage), and scored with the rest:
    /// what was just imported is found by meaning for what is asked before the pass gets to it.
    public func neighbours(_ query: String, alsoScoring unembedded: [(kind: IndexKind, id: String)] = []) throws
        -> [(kind: IndexKind, id: String, score: Float)] {
        let index = try vectors()
        guard let vector = try queryVector(query) else { return [] }
        var found = index.nearest(vector, k: Self.neighbourCount)
        let extra = try interimScores(unembedded.filter { !index.contains($0.kind.rawValue + ":" + $0.id) }, vector)
        if !extra.isEmpty {
            found = Array((found + extra).sorted { $0.score != $1.score ? $0.score > $1.score : $0.key < $1.key }.prefix(Self.neighbourCount))
        }
        guard let best = found.first?.score else { return [] }
        let keep = max(best - FusionWeights.current.cutoff, Self.absoluteFloor)
        return found.filter { $0.score >= keep }.compactMap { hit in
            let parts = hit.key.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, let kind = IndexKind(rawValue: String(parts[0])) else { return nil }
            return (kind, String(parts[1]), hit.score)
        }
    }
}

extension MeaningSearch {
    /// Word hits without a vector embedded per query, at most.
    public static let interimPerQuery = 4

    /// The cosine of each item's interim vector (made now if need be, kept for the next queries) with the query's.
    func interimScores(_ items: [(kind: IndexKind, id: String)], _ query: [Float]) throws -> [(key: String, score: Float)] {
        var texts: [(key: String, hash: String, text: String)] = []
        let hasher = MeaningIndexer(store: store, embedder: embedder)
        // One read for all of them: during a flood of captures, when the background pass lags and every word hit
        // lacks a vector, a read per hit took up to 6 ms of a search on the busy store.
        let ids = items.filter { $0.kind == .memory }.map(\.id)
        for m in try ids.isEmpty ? [] : store.memories(ids: ids) {
            guard texts.count < Self.interimPerQuery else { break }
            let text = MeaningIndexer.text(of: m)
            texts.append(("memory:" + m.id, hasher.hash(text), text))
        }
        let missing = texts.filter { interim[$0.key]?.hash != $0.hash }.map { InterimText(key: $0.key, hash: $0.hash, text: Passages.split($0.text)[0]) }
        if let deferInterim {
            let ask = missing.filter { interimAsked.insert($0.key + "#" + $0.hash).inserted }
            if !ask.isEmpty { deferInterim(ask) }
        } else if !missing.isEmpty {
            let made = try embedder.embed(missing.map(\.text), as: .passage)
            for (t, v) in zip(missing, made) { keepInterim(t, vector: v) }
        }
        return texts.compactMap { t in
            interim[t.key].map { (t.key, zip($0.vector, query).reduce(Float(0)) { $0 + $1.0 * $1.1 }) }
        }
    }
}

/// How words and meaning are weighed in the fusion (`ENGRAM_BENCH_FUSION=k,words,meaning,cutoff[,floor]` overrides
/// them for `make bench`'s tuning runs only).
///
/// Tuned on the tuning halves only of three question sets (`make bench`'s `bench.fusion_tune`: the Debian synopses,
/// 190 questions written over the Debian descriptions, the sample questions), then checked on their held-out halves.
/// With the engine built with Engram's kernels, k = 30 with words at 1.4 had the best mean over the tuning halves
/// (0.858, equal weights at k = 60 0.857); held out it scored MRR@10 0.899 / 0.856 / 0.860 (written questions /
/// samples / synopses), equal weights at k = 60 0.888 / 0.856 / 0.856, the weights before (k = 15, words at 0.6,
/// tuned on all 56 sample questions) 0.850 / 0.853 / 0.847. Neighbours within 0.07 of the best.
struct FusionWeights {
    var k = 30.0
    var words = 1.4
    var meaning = 1.0
    var cutoff: Float = MeaningSearch.relativeCutoff
    var floor: Float = 0.835

    static let current: FusionWeights = {
        var w = FusionWeights()
        if let spec = ProcessInfo.processInfo.environment["ENGRAM_BENCH_FUSION"] {
            let parts = spec.split(separator: ",").compactMap { Double($0) }
            if parts.count >= 4 { w = FusionWeights(k: parts[0], words: parts[1], meaning: parts[2], cutoff: Float(parts[3])) }
            if parts.count == 5 { w.floor = Float(parts[4]) }
        }
        return w
    }()
}

extension IndexReader {
    /// Reciprocal-rank fusion's constant: smaller makes the top ranks of each list count for more.
    static var fusionK: Double { FusionWeights.current.k }

    /// The one search every surface runs: words, and with `meaning` words and meaning fused.
    ///
    /// Words rank as `search` does (with natural questions ranked, see `QueryShape`); decay still decides what has
    /// faded (the neighbours found by meaning pass the same kinds, context and expiry filters). Each item's score is
    /// the sum over the two lists of 1 / (k + rank), a word match's share scaled by its relevance: found by both, it
    /// rises; found by one, it keeps its place among them. An item found by meaning alone has `byMeaning` set.
    public func search(_ request: SearchRequest, meaning: MeaningSearch?) throws -> SearchResults {
        guard let meaning, let meaningText = QueryShape.meaningText(request.query, partial: request.partial), request.limit > 0 else {
            return try search(request)
        }
        let wanted = request.offset + request.limit
        var wide = request
        wide.offset = 0
        wide.limit = max(wanted, 30)
        wide.detailCount = 0  // fusion may move any word hit into the page

        var lexical = try search(wide)
        let neighbours: [(kind: IndexKind, id: String, score: Float)]
        do {
            neighbours = try meaning.neighbours(meaningText, alsoScoring: lexical.hits.prefix(10).map { ($0.kind, $0.id) })
        } catch {
            lexical.notice = [lexical.notice, "meaning search failed (\(error)); words only"].compactMap { $0 }.joined(separator: "; ")
            return page(lexical, request)
        }
        func key(_ k: IndexKind, _ id: String) -> String { k.rawValue + ":" + id }
        var score: [String: Double] = [:]
        var hits: [String: SearchHit] = [:]
        // A word match counts in proportion to its relevance (Xapian's percentage, which falls with the share of the
        // query's words a document has): in a natural question the documents with one common word ("contains" for
        // "container") trail far behind and must not outrank what meaning found.
        for (rank, hit) in lexical.hits.enumerated() {
            let k = key(hit.kind, hit.id)
            score[k, default: 0] += FusionWeights.current.words * hit.relevance / (Self.fusionK + Double(rank + 1))
            hits[k] = hit
        }
        // A neighbour counts in proportion to how close it is to the best one: e5's similarities bunch, and the
        // fortieth neighbour, nearly as similar as the first, is no evidence.
        let bestScore = neighbours.first?.score ?? 0
        for (rank, n) in neighbours.enumerated() {
            let cutoff = FusionWeights.current.cutoff
            let closeness = Double(max(0, min(1, (n.score - (bestScore - cutoff)) / cutoff)))
            score[key(n.kind, n.id), default: 0] += FusionWeights.current.meaning * closeness / (Self.fusionK + Double(rank + 1))
        }
        let missing = neighbours.filter { hits[key($0.kind, $0.id)] == nil }.map { ($0.kind, $0.id) }
        for var hit in try fetch(request, items: missing) {
            hit.byMeaning = true
            hits[key(hit.kind, hit.id)] = hit
        }
        let ordered = hits.values.sorted {
            let a = score[key($0.kind, $0.id)] ?? 0, b = score[key($1.kind, $1.id)] ?? 0
            return a != b ? a > b : ($0.kind.rawValue, $0.id) < ($1.kind.rawValue, $1.id)
        }
        let top = ordered.first.flatMap { score[key($0.kind, $0.id)] } ?? 1
        var fused = lexical
        fused.hits = ordered.enumerated().map { rank, hit in
            var h = hit
            h.rank = rank
            h.relevance = min(1, max(0, (score[key(hit.kind, hit.id)] ?? 0) / top))
            return h
        }
        fused.estimatedTotal = max(lexical.estimatedTotal, fused.hits.count)
        if !fused.hits.isEmpty { fused.suggestion = nil }
        return page(fused, request)
    }

    /// The request's page of fused results.
    private func page(_ results: SearchResults, _ request: SearchRequest) -> SearchResults {
        var r = results
        r.hits = Array(r.hits.dropFirst(request.offset).prefix(request.limit))
        return r
    }
}
