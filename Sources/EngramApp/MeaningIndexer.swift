import EngramCore
import Foundation
import Indexer
import Meaning

/// Keeps a vector for every memory, curriculum and topic, following the outbox as the index does.
///
/// Run by whoever holds the index writer, after the words are searchable. Vectors and the outbox mark they reached
/// are saved together per batch, so a crash loses nothing and repeats no saved work; an item whose text has a vector
/// already (same text, same model) is never embedded again. The outbox is not pruned past the mark while meaning
/// search is on. A different model deletes the vectors and embeds everything again; so does finding the outbox
/// pruned past the mark (meaning search was off meanwhile), then only what changed is embedded.
public struct MeaningIndexer {
    public let store: Store
    public let embedder: any Embedder
    /// Items embedded per saved batch.
    public var batchSize = 32
    /// Gets (done, total) after each batch of a long pass.
    public var progress: ((Int, Int) -> Void)?
    /// Crash-safety tests: called at "embed-after-save" after each saved batch.
    public var crashPoint: ((String) throws -> Void)?
    /// The store's vectors in memory, for automatic links (a long-lived embedder keeps one between passes).
    public var vectors: VectorCache?

    public init(store: Store, embedder: any Embedder) {
        self.store = store
        self.embedder = embedder
    }

    /// What a pass did.
    public struct Report: Sendable, Equatable {
        public var embedded = 0
        public var deleted = 0
        /// The whole store was compared with the vectors (first run, new model, or the outbox moved on without us).
        public var reconciled = false
    }

    /// Brings the vectors up to the store; returns what it did.
    @discardableResult
    public func run() throws -> Report {
        if let model = try store.vectorModel(), model != embedder.modelID {
            try store.deleteAllVectors()
        }
        guard let mark = try store.vectorMark(), try !outboxMovedOn(past: mark) else {
            return try reconcile()
        }
        var report = Report()
        var seq = mark
        let total = try store.pendingOutboxCount(after: seq)
        // A big change (an import, a sync from another machine) is embedded most wanted first, as a first pass is:
        // in outbox order, ten thousand imported notes would keep today's captures waiting behind them.
        if total > Self.priorityPassThreshold { return try reconcile(linkingAfter: mark) }
        var hashes: [String: String]?
        while true {
            let batch = try store.outboxBatch(after: seq, limit: 256)
            if batch.entries.isEmpty { break }
            var items: [Item] = []
            var gone: [(OutboxEntry.Kind, String)] = []
            var seen = Set<String>()
            for entry in batch.entries.reversed() where seen.insert(entry.kind.rawValue + ":" + entry.itemID).inserted {
                if let item = Item(entry, batch) { items.append(item) } else { gone.append((entry.kind, entry.itemID)) }
            }
            if hashes == nil, !items.isEmpty { hashes = try store.vectorHashes() }
            let fresh = items.filter { hashes?[$0.key] != hash($0.text) }
            // New captures (not imports) are linked to a memory nearly the same in meaning, as the index links by words.
            let linkable = try Set(store.autoLinkCandidates(after: seq, through: batch.lastSeq,
                                                            createdAfter: store.clock().addingTimeInterval(-3600)).map(\.id))
            try embedAndSave(fresh, deleting: gone, through: batch.lastSeq, linking: linkable) { done in
                progress?(report.embedded + done, max(total, report.embedded + fresh.count))
            }
            report.embedded += fresh.count
            report.deleted += gone.count
            seq = batch.lastSeq
        }
        return report
    }

    /// Whether the outbox no longer holds the entries right after `mark`: sequence numbers are consecutive, so a
    /// first pending entry past `mark + 1`, or none while the store has made later changes, means some were pruned.
    private func outboxMovedOn(past mark: Int64) throws -> Bool {
        let latest = try store.latestOutboxSeq()
        guard let first = try store.outboxBatch(after: mark, limit: 1).entries.first?.seq else { return latest > mark }
        return first > mark + 1
    }

    /// Pending outbox entries above which a pass embeds in priority order (`reconcile`) instead of outbox order.
    public static let priorityPassThreshold = 512

    /// Compares every item with the vectors: embeds what has none (or another text's), deletes vectors of items gone.
    /// With `linkingAfter` (the mark of a big incremental pass), new captures since it are linked as a pass in outbox
    /// order would link them.
    private func reconcile(linkingAfter mark: Int64? = nil) throws -> Report {
        let snapshot = try store.indexSnapshot()
        let hashes = try store.vectorHashes()
        // The most wanted first, so that a long first pass (a new model, a big collection) serves them soonest:
        // pinned memories, then by the last time each was made, edited or used, newest first; then curricula and
        // topics. (The mark is saved with the last batch, so the order within the pass is free.)
        let wanted = snapshot.memories.sorted { a, b in
            if a.pinned != b.pinned { return a.pinned }
            let ra = max(a.created, a.updated, a.lastReinforced), rb = max(b.created, b.updated, b.lastReinforced)
            return ra != rb ? ra > rb : a.id < b.id
        }
        var items = wanted.map { Item(kind: .memory, id: $0.id, text: Self.text(of: $0)) }
        items += snapshot.curricula.map { Item(kind: .curriculum, id: $0.id, text: Self.text(of: $0)) }
        items += snapshot.topics.map { Item(kind: .topic, id: $0.id, text: Self.text(of: $0)) }
        let keys = Set(items.map(\.key))
        let gone: [(OutboxEntry.Kind, String)] = hashes.keys.filter { !keys.contains($0) }.compactMap { key in
            let parts = key.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, let kind = OutboxEntry.Kind(rawValue: String(parts[0])) else { return nil }
            return (kind, String(parts[1]))
        }
        let fresh = items.filter { hashes[$0.key] != hash($0.text) }
        let linkable = try mark.map {
            try Set(store.autoLinkCandidates(after: $0, through: snapshot.seq, createdAfter: store.clock().addingTimeInterval(-3600)).map(\.id))
        } ?? []
        try embedAndSave(fresh, deleting: gone, through: snapshot.seq, linking: linkable) { done in progress?(done, fresh.count) }
        return Report(embedded: fresh.count, deleted: gone.count, reconciled: true)
    }

    /// Embeds items in batches, saving each batch with its vectors; the last saves `seq` as the mark (earlier ones
    /// keep the old mark, or 0, which holds the outbox from being pruned meanwhile).
    /// A new memory is linked automatically to its nearest memory by meaning at this similarity or above: e5 puts
    /// unrelated notes at 0.80–0.88 and near-paraphrases above 0.92 (measured on the sample collection: its
    /// hand-made links median 0.886, random pairs' 99.9th percentile 0.897).
    public static let autoLinkSimilarity: Float = 0.92

    private func embedAndSave(_ items: [Item], deleting gone: [(OutboxEntry.Kind, String)], through seq: Int64,
                              linking linkable: Set<String> = [], progress: (Int) -> Void) throws {
        let held = try store.vectorMark() ?? 0
        if items.isEmpty {
            try store.saveVectors([], deleting: gone, through: seq, model: embedder.modelID)
            return
        }
        var done = 0
        let cache = vectors ?? VectorCache(store: store, dimension: embedder.dimension)
        for start in stride(from: 0, to: items.count, by: batchSize) {
            let slice = Array(items[start..<min(start + batchSize, items.count)])
            // Every passage of every item in one call (the engine packs them into passes), then each item's back.
            let passages = slice.map { Passages.split($0.text) }
            let flat = try embedder.embed(passages.flatMap { $0 }, as: .passage)
            var vectors: [[Float]] = [], stored: [StoredVector] = []
            var at = 0
            for (item, parts) in zip(slice, passages) {
                let mine = Array(flat[at..<at + parts.count])
                at += parts.count
                vectors.append(mine[0])
                stored.append(StoredVector(kind: item.kind, itemID: item.id, textHash: hash(item.text), data: Vector.encode(passages: mine)))
            }
            let last = start + batchSize >= items.count
            var links: [(from: String, to: String, weight: Double)] = []
            let toLink = zip(slice, vectors).filter { $0.0.kind == .memory && linkable.contains($0.0.id) }
            if !toLink.isEmpty {
                // Every memory's vector, this batch's included (two captures of one thought may arrive together);
                // the stored vectors of this batch's items are of their old text.
                let mine = Set(stored.map(\.key))
                let saved = try cache.current()
                let batch = VectorIndex(stored.filter { $0.kind == .memory }, dimension: embedder.dimension)
                for (item, v) in toLink {
                    let candidates = saved.nearest(v, k: 8).filter { $0.key.hasPrefix("memory:") && !mine.contains($0.key) }
                        + batch.nearest(v, k: 2).filter { $0.key != item.key }
                    guard let nearest = candidates.max(by: { $0.score < $1.score }),
                          nearest.score >= Self.autoLinkSimilarity else { continue }
                    links.append((item.id, String(nearest.key.dropFirst("memory:".count)), Double(nearest.score)))
                }
            }
            try store.saveVectors(stored, deleting: start == 0 ? gone : [], through: last ? seq : held, model: embedder.modelID,
                                  links: links)
            done += slice.count
            progress(done)
            try crashPoint?("embed-after-save")
        }
    }

    /// The hash a vector is kept under: the text and the model, FNV-1a 64; for a long text, also how it is cut into
    /// passages (a long text embedded before passages existed, as its first 2 KB, is embedded again).
    func hash(_ text: String) -> String {
        var h: UInt64 = 0xcbf29ce484222325
        for b in embedder.modelID.utf8 { h = (h ^ UInt64(b)) &* 0x100000001b3 }
        if Passages.isLong(text) {
            for b in "passages \(Passages.maxBytes)/\(Passages.overlapBytes)/\(Passages.maxPassages)".utf8 { h = (h ^ UInt64(b)) &* 0x100000001b3 }
        }
        h = (h ^ 0xff) &* 0x100000001b3
        for b in text.utf8 { h = (h ^ UInt64(b)) &* 0x100000001b3 }
        return String(h, radix: 16)
    }

    /// The text embedded for a memory: its content, with its tags (they say what it is about).
    public static func text(of m: Memory) -> String {
        m.tags.isEmpty ? m.content : m.content + "\n" + m.tags.joined(separator: ", ")
    }

    /// The text embedded for a curriculum: title and description.
    public static func text(of c: Curriculum) -> String {
        c.description.isEmpty ? c.title : c.title + "\n" + c.description
    }

    /// The text embedded for a topic: title and notes.
    public static func text(of t: Topic) -> String {
        t.notes.isEmpty ? t.title : t.title + "\n" + t.notes
    }

    /// An item to embed.
    struct Item {
        var kind: OutboxEntry.Kind
        var id: String
        var text: String
        var key: String { kind.rawValue + ":" + id }

        init(kind: OutboxEntry.Kind, id: String, text: String) {
            self.kind = kind
            self.id = id
            self.text = text
        }

        /// The entry's item as the batch holds it now, or nil if it is gone.
        init?(_ entry: OutboxEntry, _ batch: OutboxBatch) {
            switch entry.kind {
            case .memory: guard let m = batch.memories[entry.itemID] else { return nil }; self.init(kind: .memory, id: m.id, text: MeaningIndexer.text(of: m))
            case .curriculum: guard let c = batch.curricula[entry.itemID] else { return nil }; self.init(kind: .curriculum, id: c.id, text: MeaningIndexer.text(of: c))
            case .topic: guard let t = batch.topics[entry.itemID] else { return nil }; self.init(kind: .topic, id: t.id, text: MeaningIndexer.text(of: t))
            }
        }
    }
}
