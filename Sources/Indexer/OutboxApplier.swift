import EngramCore
import Foundation

/// What one pass of the outbox applier did.
public struct ApplyReport: Sendable, Equatable {
    /// Outbox entries applied.
    public var applied = 0
    /// Documents written or replaced.
    public var upserted = 0
    /// Documents removed (forgotten items).
    public var deleted = 0
    /// Automatic links made for new memories.
    public var linked = 0
    /// The last outbox sequence now in the index.
    public var lastSeq: Int64 = 0
}

/// Applies the store's outbox to the index in batches, exactly once across crashes.
///
/// The last applied sequence is stored in the index's metadata in the same commit as the documents, so
/// a crash before the commit re-applies the batch (upserts and deletes are idempotent) and a crash
/// after it skips the batch. The outbox is pruned only after the commit.
public struct OutboxApplier {
    public let store: Store
    public let config: EngramConfig
    /// Called after each batch with (entries applied so far, entries pending at the start).
    public var progress: ((Int, Int) -> Void)?
    /// Test hook: called at named points of a batch ("after-write", "after-commit") to simulate crashes.
    public var crashPoint: ((String) throws -> Void)?

    /// Creates an applier.
    public init(store: Store, config: EngramConfig) {
        self.store = store
        self.config = config
    }

    /// Applies every pending entry with `writer`, committing every `config.indexBatchSize` entries.
    public func apply(with writer: IndexWriter) throws -> ApplyReport {
        var report = ApplyReport()
        var seq = try writer.lastAppliedSeq()
        let total = try store.pendingOutboxCount(after: seq)
        while true {
            let batch = try store.outboxBatch(after: seq, limit: config.indexBatchSize)
            if batch.entries.isEmpty { break }
            var seen = Set<String>()
            var fresh: [String] = []
            let now = store.clock()
            for entry in batch.entries.reversed() {
                let key = entry.kind.rawValue + ":" + entry.itemID
                guard seen.insert(key).inserted else { continue }  // the latest state covers earlier entries
                let kind = StoreMapping.kind(entry.kind)
                switch entry.kind {
                case .memory:
                    if let m = batch.memories[entry.itemID] {
                        try writer.upsert(StoreMapping.document(for: m, decay: config.decay))
                        report.upserted += 1
                        if entry.link, m.useCount == 0, now.timeIntervalSince(m.created) < 3600 { fresh.append(m.id) }
                    } else {
                        try writer.delete(kind: kind, id: entry.itemID)
                        report.deleted += 1
                    }
                case .curriculum:
                    if let c = batch.curricula[entry.itemID] {
                        try writer.upsert(StoreMapping.document(for: c)); report.upserted += 1
                    } else {
                        try writer.delete(kind: kind, id: entry.itemID); report.deleted += 1
                    }
                case .topic:
                    if let t = batch.topics[entry.itemID] {
                        try writer.upsert(StoreMapping.document(for: t)); report.upserted += 1
                    } else {
                        try writer.delete(kind: kind, id: entry.itemID); report.deleted += 1
                    }
                }
            }
            try crashPoint?("after-write")
            try writer.commit(lastAppliedSeq: batch.lastSeq)
            try crashPoint?("after-commit")
            seq = batch.lastSeq
            report.applied += batch.entries.count
            report.lastSeq = seq
            report.linked += autoLink(fresh, with: writer)
            try? store.pruneOutbox(through: seq)
            progress?(report.applied, total)
        }
        report.lastSeq = seq
        return report
    }

    /// Links each new memory to its nearest neighbours found by relevance feedback.
    func autoLink(_ ids: [String], with writer: IndexWriter) -> Int {
        guard config.autoLinkCount > 0 else { return 0 }
        var made = 0
        for id in ids.prefix(200) {
            guard let related = try? writer.related(kind: .memory, id: id, limit: config.autoLinkCount) else { continue }
            let strong = related.filter { $0.score >= config.autoLinkMinScore && $0.id != id }.map { (id: $0.id, weight: $0.score) }
            if (try? store.addAutoLinks(from: id, to: strong)) != nil { made += strong.count }
        }
        return made
    }
}
