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

    /// Whether the outbox still holds entries at or before `seq` (a pass stopped before pruning them).
    public func outboxHolds(through seq: Int64) throws -> Bool {
        try read { db in try OutboxEntry.filter(OutboxEntry.Columns.seq <= seq).isEmpty(db) == false }
    }

    /// Drops outbox entries the index has committed, never past the auto-link mark: entries whose new memories
    /// are still to be linked stay, so a crash between an index commit and the links loses no links. While meaning
    /// search is on, never past the vectors' mark either: the entries not embedded yet stay.
    public func pruneOutbox(through seq: Int64) throws {
        guard seq > 0 else { return }
        try write("tidy the outbox") { db in
            let vectors = try Store.vectorMark(db) ?? Int64.max
            try db.execute(sql: "DELETE FROM outbox WHERE seq <= min(?, ?, ?)",
                           arguments: [seq, try Store.autoLinkedSeq(db), vectors])
        }
    }

    /// The setting under which the last outbox sequence whose new memories were auto-linked is kept.
    static let autoLinkedSeqKey = "index.autolinked_seq"

    /// The last outbox sequence whose new memories have been linked to their neighbours (0 if none yet).
    public func autoLinkedSeq() throws -> Int64 {
        try read { db in try Store.autoLinkedSeq(db) }
    }

    static func autoLinkedSeq(_ db: Database) throws -> Int64 {
        try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [autoLinkedSeqKey]).flatMap { Int64($0) } ?? 0
    }

    /// The memories to auto-link among outbox entries after `after` through `through`: those whose latest entry
    /// there allows links (captures, not imports), never used and created after `createdAfter`; with the sequence
    /// of that entry, in sequence order.
    public func autoLinkCandidates(after: Int64, through: Int64, createdAfter: Date) throws -> [(seq: Int64, id: String)] {
        try read { db in
            // With max(), SQLite takes the bare column `link` from the row holding the maximum: the latest entry.
            try Row.fetchAll(db, sql: """
                SELECT c.seq, c.itemID FROM (
                    SELECT max(o.seq) AS seq, o.itemID AS itemID, o.link AS link FROM outbox o
                    WHERE o.kind = 'memory' AND o.seq > ? AND o.seq <= ? GROUP BY o.itemID) c
                JOIN memory m ON m.id = c.itemID
                WHERE c.link AND m.useCount = 0 AND m.created > ?
                ORDER BY c.seq
                """, arguments: [after, through, createdAfter]).map { (seq: $0[0], id: $0[1]) }
        }
    }

    /// Stores automatically found links and moves the auto-link mark to `seq`, in one transaction: either both
    /// are saved or neither (then the next pass links again). Links whose ends no longer exist are skipped.
    public func recordAutoLinks(_ links: [(from: String, to: [(id: String, weight: Double)])], through seq: Int64) throws {
        let now = clock()
        try write("link related memories") { db in
            for link in links where try Store.memoryExists(db, link.from) {
                for other in link.to where other.id != link.from {
                    guard try Store.memoryExists(db, other.id) else { continue }
                    try Store.link(db, link.from, other.id, origin: .auto, weight: other.weight, at: now)
                }
            }
            try db.execute(sql: "INSERT INTO setting(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                           arguments: [Store.autoLinkedSeqKey, String(seq)])
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
