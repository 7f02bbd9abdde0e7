import Foundation
import GRDB

/// The store's view of what the index must learn, read in one consistent snapshot.
public struct OutboxBatch: Sendable {
    /// The entries, in sequence order.
    public var entries: [OutboxEntry]
    /// The current state of each memory named (absent: it was forgotten).
    public var memories: [String: Memory]
    /// The current state of each curriculum named.
    public var curricula: [String: Curriculum]
    /// The current state of each topic named.
    public var topics: [String: Topic]
    /// The highest sequence number in the batch.
    public var lastSeq: Int64 { entries.last?.seq ?? 0 }
}

/// Everything the index should hold, with the outbox position it corresponds to.
public struct IndexSnapshot: Sendable {
    public var memories: [Memory]
    public var curricula: [Curriculum]
    public var topics: [Topic]
    /// The last outbox sequence reflected by this snapshot.
    public var seq: Int64
}

extension Store {
    /// Up to `limit` outbox entries after `seq`, with the current state of the items they name.
    public func outboxBatch(after seq: Int64, limit: Int) throws -> OutboxBatch {
        try read { db in
            let entries = try OutboxEntry.filter(OutboxEntry.Columns.seq > seq)
                .order(OutboxEntry.Columns.seq).limit(limit).fetchAll(db)
            func ids(_ k: OutboxEntry.Kind) -> Set<String> { Set(entries.filter { $0.kind == k }.map(\.itemID)) }
            let memories = try Memory.fetchAll(db, keys: Array(ids(.memory)))
            let curricula = try Curriculum.fetchAll(db, keys: Array(ids(.curriculum)))
            let topics = try Topic.fetchAll(db, keys: Array(ids(.topic)))
            return OutboxBatch(
                entries: entries,
                memories: Dictionary(memories.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }),
                curricula: Dictionary(curricula.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }),
                topics: Dictionary(topics.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }))
        }
    }

    /// The highest outbox sequence ever written (0 if none).
    public func latestOutboxSeq() throws -> Int64 {
        try read { db in try Store.latestSeq(db) }
    }

    static func latestSeq(_ db: Database) throws -> Int64 {
        // AUTOINCREMENT keeps the high-water mark in sqlite_sequence even after pruning.
        let fromSequence = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'outbox'") ?? 0
        let fromTable = try Int64.fetchOne(db, sql: "SELECT max(seq) FROM outbox") ?? 0
        return max(fromSequence, fromTable)
    }

    /// How many outbox entries are waiting after `seq`.
    public func pendingOutboxCount(after seq: Int64) throws -> Int {
        try read { db in try OutboxEntry.filter(OutboxEntry.Columns.seq > seq).fetchCount(db) }
    }

    /// Drops outbox entries the index has committed.
    public func pruneOutbox(through seq: Int64) throws {
        guard seq > 0 else { return }
        try write("tidy the outbox") { db in
            try db.execute(sql: "DELETE FROM outbox WHERE seq <= ?", arguments: [seq])
        }
    }

    /// Everything indexable, read in one transaction together with the outbox position.
    public func indexSnapshot() throws -> IndexSnapshot {
        try read { db in
            IndexSnapshot(
                memories: try Memory.order(Memory.Columns.created).fetchAll(db),
                curricula: try Curriculum.fetchAll(db),
                topics: try Topic.order(Topic.Columns.curriculumID, Topic.Columns.position).fetchAll(db),
                seq: try Store.latestSeq(db))
        }
    }
}
