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
/// after it skips the batch. New memories are then linked to their neighbours, and the store records the
/// links together with the last sequence linked (its auto-link mark); the outbox is pruned only through
/// both the commit and that mark, so a crash before the links are saved makes the next pass link them.
public struct OutboxApplier {
    public let store: Store
    public let config: EngramConfig
    /// Called after each batch with (entries applied so far, entries pending at the start).
    public var progress: ((Int, Int) -> Void)?
    /// Test hook: called at named points of a batch ("after-write", "after-commit", "after-autolink",
    /// "after-prune") to simulate crashes.
    public var crashPoint: ((String) throws -> Void)?

    /// Auto-linking considers memories created less than this long ago (older ones are not new captures).
    static let freshness: TimeInterval = 3600
    /// At most this many new memories of each batch are linked (each costs a relevance-feedback query).
    static let linksPerBatch = 200

    /// Creates an applier.
    public init(store: Store, config: EngramConfig) {
        self.store = store
        self.config = config
    }

    /// Applies every pending entry with `writer`, committing every `config.indexBatchSize` entries.
    ///
    /// First links the new memories of changes already committed but never linked (a crash came between).
    public func apply(with writer: IndexWriter) throws -> ApplyReport {
        var report = ApplyReport()
        var seq = try writer.lastAppliedSeq()
        if try store.autoLinkedSeq() < seq {
            report.linked += linkPending(through: seq, with: writer)
            try crashPoint?("after-autolink")
        }
        if try store.outboxHolds(through: seq) { try? store.pruneOutbox(through: seq) }
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
            report.linked += linkPending(through: seq, with: writer)
            try crashPoint?("after-autolink")
            try? store.pruneOutbox(through: seq)
            try crashPoint?("after-prune")
            progress?(report.applied, total)
        }
        report.lastSeq = seq
        return report
    }

    /// Links the new memories of the committed changes after the store's auto-link mark through `seq` to their
    /// nearest neighbours (found by relevance feedback), saving the links and moving the mark in one transaction.
    ///
    /// Of every `indexBatchSize` changes, at most `linksPerBatch` new memories are linked. Returns how many links
    /// were made; if the store cannot save them, the mark stays and the next pass tries again.
    func linkPending(through seq: Int64, with writer: IndexWriter) -> Int {
        guard let from = try? store.autoLinkedSeq(), from < seq else { return 0 }
        var links: [(from: String, to: [(id: String, weight: Double)])] = []
        if config.autoLinkCount > 0 {
            let now = store.clock()
            let batch = Int64(max(config.indexBatchSize, 1))
            let candidates = (try? store.autoLinkCandidates(after: from, through: seq, createdAfter: now.addingTimeInterval(-Self.freshness))) ?? []
            var perWindow: [Int64: Int] = [:]
            for candidate in candidates {
                let window = (candidate.seq - from - 1) / batch
                guard perWindow[window, default: 0] < Self.linksPerBatch else { continue }
                perWindow[window, default: 0] += 1
                guard let related = try? writer.related(kind: .memory, id: candidate.id, limit: config.autoLinkCount, now: now) else { continue }
                let strong = related.filter { $0.score >= config.autoLinkMinScore && $0.id != candidate.id }.map { (id: $0.id, weight: $0.score) }
                if !strong.isEmpty { links.append((candidate.id, strong)) }
            }
        }
        guard (try? store.recordAutoLinks(links, through: seq)) != nil else { return 0 }
        return links.reduce(0) { $0 + $1.to.count }
    }
}
