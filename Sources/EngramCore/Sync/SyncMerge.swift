import Foundation
import GRDB

/// Applies operations to the merge state (registers, revisions, sets, counters, tombstones).
///
/// Every rule here is a join of a semilattice, so applying a set of operations gives the same state in any order
/// and applying one twice changes nothing:
/// - a field keeps the value with the greatest stamp; every other value written to it is a revision, keyed by the
///   stamp of the operation that wrote it (whichever order they come in, the same one wins and the same ones lose);
/// - `latest` fields keep their greatest value;
/// - a tag or link keeps its latest add and latest remove stamps and is present when the add is not older (an add
///   concurrent with a remove, or tied with it, wins);
/// - a counter keeps each device's greatest running total;
/// - a tombstone erases the item's registers, revisions, tags, links and counters and makes every operation on
///   the item, before or after, a no-op.
enum SyncMerge {
    /// An item of an entity.
    struct Key: Hashable, Sendable {
        var entity: SyncEntity
        var item: String
    }

    /// What operations changed, for the projection to rewrite.
    struct Touched: Sendable {
        var items: Set<Key> = []
        var links: Set<[String]> = []
        var isEmpty: Bool { items.isEmpty && links.isEmpty }
    }

    /// Applies `op`; records in `touched` what the store's tables must reflect.
    static func apply(_ db: Database, _ op: SyncOperation, into touched: inout Touched) throws {
        let stamp = op.stamp
        if op.op == .forget {
            try bury(db, op.e, op.item, stamp: stamp, into: &touched)
            return
        }
        if try isBuried(db, op.e, op.item) { return }
        switch op.op {
        case .set:
            for (field, value) in (op.f ?? [:]).sorted(by: { $0.key < $1.key }) {
                try setField(db, op.e, op.item, field, value.databaseValue, stamp: stamp)
            }
            touched.items.insert(Key(entity: op.e, item: op.item))
        case .tag:
            try db.cachedStatement(sql: """
                INSERT INTO syncTag(item, tag, added, removed) VALUES (?, ?, ?, ?)
                ON CONFLICT(item, tag) DO UPDATE SET
                  added = CASE WHEN excluded.added IS NOT NULL AND (added IS NULL OR excluded.added > added) THEN excluded.added ELSE added END,
                  removed = CASE WHEN excluded.removed IS NOT NULL AND (removed IS NULL OR excluded.removed > removed) THEN excluded.removed ELSE removed END
                """).execute(arguments: [op.item, op.tag ?? "", op.add == true ? stamp : nil, op.add == true ? nil : stamp])
            touched.items.insert(Key(entity: .memory, item: op.item))
        case .link:
            let other = op.other ?? ""
            if try isBuried(db, .memory, other) { return }
            let (from, to) = op.item < other ? (op.item, other) : (other, op.item)
            let add = op.add == true
            let created: String? = add ? op.f?["created"].flatMap { if case .text(let t) = $0 { t } else { nil } } : nil
            try db.cachedStatement(sql: """
                INSERT INTO syncLink(fromID, toID, added, removed, origin, weight, created) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(fromID, toID) DO UPDATE SET
                  added = CASE WHEN excluded.added IS NOT NULL AND (added IS NULL OR excluded.added > added) THEN excluded.added ELSE added END,
                  removed = CASE WHEN excluded.removed IS NOT NULL AND (removed IS NULL OR excluded.removed > removed) THEN excluded.removed ELSE removed END,
                  origin = CASE WHEN origin = 'manual' OR excluded.origin = 'manual' THEN 'manual' ELSE 'auto' END,
                  weight = max(weight, excluded.weight),
                  created = CASE WHEN created IS NULL OR (excluded.created IS NOT NULL AND excluded.created < created) THEN excluded.created ELSE created END
                """).execute(arguments: [from, to, add ? stamp : nil, add ? nil : stamp,
                                         add ? (op.origin == "manual" ? "manual" : "auto") : "auto",
                                         add ? max(0, op.weight ?? 0) : 0, created])
            touched.links.insert([from, to])
        case .count:
            try db.cachedStatement(sql: """
                INSERT INTO syncCounter(entity, item, counter, device, total) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(entity, item, counter, device) DO UPDATE SET total = max(total, excluded.total)
                """).execute(arguments: [op.e.rawValue, op.item, op.counter ?? "", op.dev, op.total ?? 0])
            touched.items.insert(Key(entity: op.e, item: op.item))
        case .forget:
            break
        }
    }

    /// Merges one field value written by the operation `stamp`.
    static func setField(_ db: Database, _ e: SyncEntity, _ item: String, _ field: String, _ value: DatabaseValue, stamp: String) throws {
        if e.latest.contains(field) {
            try db.cachedStatement(sql: """
                INSERT INTO syncField(entity, item, field, value, stamp) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(entity, item, field) DO UPDATE SET value = excluded.value, stamp = excluded.stamp
                WHERE excluded.value > value OR (excluded.value IS value AND excluded.stamp > stamp)
                """).execute(arguments: [e.rawValue, item, field, value, stamp])
            return
        }
        let current = try Row.fetchOne(db.cachedStatement(sql: "SELECT value, stamp FROM syncField WHERE entity = ? AND item = ? AND field = ?"),
                                       arguments: [e.rawValue, item, field])
        let keep = e.history.contains(field)
        guard let current else {
            try db.cachedStatement(sql: "INSERT INTO syncField(entity, item, field, value, stamp) VALUES (?, ?, ?, ?, ?)")
                .execute(arguments: [e.rawValue, item, field, value, stamp])
            return
        }
        let currentStamp: String = current["stamp"]
        let currentValue: DatabaseValue = current["value"]
        if currentStamp == stamp && currentValue == value { return }
        // Two values under one stamp (a peer that reused one): the greater by `order` wins, whichever came first.
        if stamp > currentStamp || (stamp == currentStamp && order(value, currentValue)) {
            if keep { try revise(db, e, item, field, currentValue, stamp: currentStamp) }
            try db.cachedStatement(sql: "UPDATE syncField SET value = ?, stamp = ? WHERE entity = ? AND item = ? AND field = ?")
                .execute(arguments: [value, stamp, e.rawValue, item, field])
        } else if keep {
            try revise(db, e, item, field, value, stamp: stamp)
        }
    }

    /// A total order on values, to break a tie between two values written under the same stamp: by SQLite type
    /// (null, integer, real, text), then by value (text by its UTF-8 bytes).
    static func order(_ a: DatabaseValue, _ b: DatabaseValue) -> Bool {
        func rank(_ v: DatabaseValue) -> Int {
            switch v.storage { case .null: 0; case .int64: 1; case .double: 2; case .string: 3; case .blob: 4 }
        }
        switch (a.storage, b.storage) {
        case (.int64(let x), .int64(let y)): return x < y
        case (.double(let x), .double(let y)): return x.isTotallyOrdered(belowOrEqualTo: y) && x != y
        case (.string(let x), .string(let y)): return Array(x.utf8).lexicographicallyPrecedes(Array(y.utf8))
        case (.blob(let x), .blob(let y)): return x.lexicographicallyPrecedes(y)
        default: return rank(a) < rank(b)
        }
    }

    /// Keeps a value that lost as the revision of the write `stamp`; of two values under one stamp, the greater
    /// by `order` is kept, so the revisions are the same in any order.
    static func revise(_ db: Database, _ e: SyncEntity, _ item: String, _ field: String, _ value: DatabaseValue, stamp: String) throws {
        let args: StatementArguments = [e.rawValue, item, field, stamp]
        if let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT value FROM syncRevision WHERE entity = ? AND item = ? AND field = ? AND stamp = ?"),
                                      arguments: args) {
            guard order(row["value"] as DatabaseValue, value) else { return }
            try db.cachedStatement(sql: "UPDATE syncRevision SET value = ? WHERE entity = ? AND item = ? AND field = ? AND stamp = ?")
                .execute(arguments: [value] + args)
            return
        }
        try db.cachedStatement(sql: "INSERT INTO syncRevision(entity, item, field, stamp, value) VALUES (?, ?, ?, ?, ?)")
            .execute(arguments: [e.rawValue, item, field, stamp, value])
    }

    /// Deletes the kept lines that name any of `items` (as `item` or `other`).
    static func dropParked(_ db: Database, naming items: Set<String>) throws {
        for row in try Row.fetchAll(db, sql: "SELECT device, file, offset, line FROM syncParked") {
            guard SyncOperation.names(row["line"]).contains(where: items.contains) else { continue }
            try db.execute(sql: "DELETE FROM syncParked WHERE device = ? AND file = ? AND offset = ?",
                           arguments: [row["device"] as String, row["file"] as String, row["offset"] as Int])
        }
    }

    /// Whether any item named `name` (of any kind) has been forgotten: a kept line of an unknown kind names no
    /// entity this Engram knows.
    static func isBuriedAnywhere(_ db: Database, _ name: String) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM syncTombstone WHERE item = ?)"), arguments: [name]) ?? false
    }

    /// Whether the item has been forgotten.
    static func isBuried(_ db: Database, _ e: SyncEntity, _ item: String) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM syncTombstone WHERE entity = ? AND item = ?)"),
                          arguments: [e.rawValue, item]) ?? false
    }

    /// Records a tombstone and erases everything the merge kept about the item, including this device's own
    /// operations not yet exported; marks this device's log for compaction.
    static func bury(_ db: Database, _ e: SyncEntity, _ item: String, stamp: String, into touched: inout Touched) throws {
        try db.execute(sql: """
            INSERT INTO syncTombstone(entity, item, stamp) VALUES (?, ?, ?)
            ON CONFLICT(entity, item) DO UPDATE SET stamp = min(stamp, excluded.stamp)
            """, arguments: [e.rawValue, item, stamp])
        let args: StatementArguments = [e.rawValue, item]
        try db.execute(sql: "DELETE FROM syncField WHERE entity = ? AND item = ?", arguments: args)
        try db.execute(sql: "DELETE FROM syncRevision WHERE entity = ? AND item = ?", arguments: args)
        try db.execute(sql: "DELETE FROM syncCounter WHERE entity = ? AND item = ?", arguments: args)
        try db.execute(sql: "DELETE FROM syncPending WHERE op <> 'forget' AND ((entity = ? AND item = ?) OR (? = 'memory' AND other = ?))",
                       arguments: [e.rawValue, item, e.rawValue, item])
        // Lines kept for later (a newer Engram's, or held until their time) that name the item go too: they may
        // hold its text. Read as JSON, not matched as text, so no spelling of the line escapes.
        try dropParked(db, naming: [item])
        if e == .memory {
            try db.execute(sql: "DELETE FROM syncTag WHERE item = ?", arguments: [item])
            for pair in try Row.fetchAll(db, sql: "SELECT fromID, toID FROM syncLink WHERE fromID = ? OR toID = ?", arguments: [item, item]) {
                touched.links.insert([pair[0], pair[1]])
            }
            try db.execute(sql: "DELETE FROM syncLink WHERE fromID = ? OR toID = ?", arguments: [item, item])
        }
        try db.execute(sql: "INSERT INTO setting(key, value) VALUES (?, '1') ON CONFLICT(key) DO UPDATE SET value = '1'",
                       arguments: [SyncLog.compactKey])
        touched.items.insert(Key(entity: e, item: item))
    }
}
