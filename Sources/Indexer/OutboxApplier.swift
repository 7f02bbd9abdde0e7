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
    /// Automatic links made for new memories (by the application layer's `AutoLinker`, after the index).
    public var linked = 0
    /// The last outbox sequence now in the index.
    public var lastSeq: Int64 = 0

    /// Nothing done yet.
    public init() {}
}

/// Applies the store's outbox to the index in batches, exactly once across crashes; it reads the store and
/// never writes it.
///
/// The last applied sequence is stored in the index's metadata in the same commit as the documents, so
/// a crash before the commit re-applies the batch (upserts and deletes are idempotent) and a crash
/// after it skips the batch. What follows the index (automatic links, vectors, pruning the outbox) is the
/// application layer's (`AutoLinker`, `Library.embedPending`), each with its own mark in the store.
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
            let deletedBefore = report.deleted
            for entry in batch.entries.reversed() {
                let key = entry.kind.rawValue + ":" + entry.itemID
                guard seen.insert(key).inserted else { continue }  // the latest state covers earlier entries
                let kind = StoreMapping.kind(entry.kind)
                switch entry.kind {
                case .memory:
                    if let m = batch.memories[entry.itemID] {
                        try writer.upsert(StoreMapping.document(for: m, decay: config.decay)); report.upserted += 1
                    } else {
                        try writer.delete(kind: kind, id: entry.itemID); report.deleted += 1
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
            // A forgotten item's text stays in free blocks of the tables until a compaction: recorded in the same
            // commit as the deletion, so the next holder of the writer compacts even if this process dies now.
            if report.deleted > deletedBefore { try writer.markCompactionDue(now: store.clock()) }
            try crashPoint?("after-write")
            try writer.commit(lastAppliedSeq: batch.lastSeq)
            try crashPoint?("after-commit")
            seq = batch.lastSeq
            report.applied += batch.entries.count
            report.lastSeq = seq
            progress?(report.applied, total)
        }
        report.lastSeq = seq
        return report
    }
}
