import Foundation
import GRDB

/// Rewrites the store's tables (memory, link, curriculum, topic, session) from the merge state, item by item.
///
/// A row is a function of the merge state alone, so every device that holds the same operations holds the same
/// rows. An item appears once all its fields are known (a `set` of an edit may arrive before the one that created
/// it) and its parents exist (a topic's curriculum); a session whose curriculum or topic is not here yet points at
/// nothing until it is. Rows that change get an outbox entry, so the index follows as it does for local edits.
enum SyncProjection {
    /// Projects what `touched` names, with the items that depend on them.
    static func project(_ db: Database, _ touched: SyncMerge.Touched, at now: Date, linkNew: Bool) throws {
        var items = touched.items
        var links = touched.links
        // Parents first; dependents of what changed follow.
        for key in items where key.entity == .curriculum {
            for t in try String.fetchAll(db, sql: "SELECT item FROM syncField WHERE entity = 'topic' AND field = 'curriculumID' AND value = ?", arguments: [key.item]) {
                items.insert(.init(entity: .topic, item: t))
            }
        }
        for key in items where key.entity == .curriculum || key.entity == .topic {
            let field = key.entity == .curriculum ? "curriculumID" : "topicID"
            for s in try String.fetchAll(db, sql: "SELECT item FROM syncField WHERE entity = 'session' AND field = ? AND value = ?", arguments: [field, key.item]) {
                items.insert(.init(entity: .session, item: s))
            }
        }
        for key in items where key.entity == .memory {
            for pair in try Row.fetchAll(db, sql: "SELECT fromID, toID FROM syncLink WHERE fromID = ? OR toID = ?", arguments: [key.item, key.item]) {
                links.insert([pair[0], pair[1]])
            }
        }
        let order: [SyncEntity] = [.curriculum, .topic, .memory, .session]
        for entity in order {
            for key in items.filter({ $0.entity == entity }).sorted(by: { $0.item < $1.item }) {
                do {
                    try projectItem(db, entity, key.item, at: now, linkNew: linkNew)
                } catch let e as DatabaseError where e.resultCode == .SQLITE_CONSTRAINT {
                    // Only this statement failed; the merge state keeps the values, the table keeps its row.
                    try SyncLog.note(db, nil, "\(entity.rawValue) \(key.item) could not be shown as merged (\(e.message ?? "constraint")); its values are kept", at: now)
                }
            }
        }
        for pair in links.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            try projectLink(db, pair[0], pair[1])
        }
    }

    /// The outbox kind of an entity, nil for sessions (not indexed).
    static func outboxKind(_ e: SyncEntity) -> OutboxEntry.Kind? {
        switch e {
        case .memory: return .memory
        case .curriculum: return .curriculum
        case .topic: return .topic
        case .session: return nil
        }
    }

    static func projectItem(_ db: Database, _ e: SyncEntity, _ item: String, at now: Date, linkNew: Bool) throws {
        if try SyncMerge.isBuried(db, e, item) {
            try db.execute(sql: "DELETE FROM \(e.table) WHERE id = ?", arguments: [item])
            let removed = db.changesCount > 0
            if e == .memory {
                try db.execute(sql: "DELETE FROM activity WHERE memoryID = ?", arguments: [item])
                try db.execute(sql: "DELETE FROM request WHERE memoryID = ?", arguments: [item])
                try db.execute(sql: "DELETE FROM vector WHERE kind = 'memory' AND itemID = ?", arguments: [item])
            }
            if removed, let kind = outboxKind(e) { try Store.enqueue(db, kind, item, at: now, link: linkNew) }
            return
        }
        var values: [String: DatabaseValue] = [:]
        for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT field, value FROM syncField WHERE entity = ? AND item = ?"),
                                    arguments: [e.rawValue, item]) {
            values[row[0]] = row[1] as DatabaseValue
        }
        // Not all fields known yet: wait for the operation that creates the item.
        guard (e.lww + e.latest).allSatisfy({ values[$0] != nil }) else { return }
        for (name, column) in e.counters {
            let totals = try Row.fetchAll(db.cachedStatement(sql: "SELECT device, total FROM syncCounter WHERE entity = ? AND item = ? AND counter = ? ORDER BY device"),
                                          arguments: [e.rawValue, item, name])
            // Saturating: a total a peer sent before totals were bounded must not stop every later projection.
            let sum = min(totals.reduce(0.0) { $0 + ($1[1] as Double) }, SyncOperation.maxTotal * 1000)
            values[column] = e == .memory ? Int64(saturating: sum.rounded()).databaseValue : sum.databaseValue
        }
        switch e {
        case .memory:
            let tags = try String.fetchAll(db.cachedStatement(sql: """
                SELECT tag FROM syncTag WHERE item = ? AND added IS NOT NULL AND (removed IS NULL OR added >= removed) ORDER BY tag
                """), arguments: [item])
            // The set is synced, not its order: a row keeps the order it has, and new tags follow in name order.
            let storedText = try String.fetchOne(db, sql: "SELECT tags FROM memory WHERE id = ?", arguments: [item])
            let stored = storedText.flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) } ?? []
            let present = Set(tags)
            let ordered = stored.filter(present.contains) + tags.filter { !stored.contains($0) }
            if let storedText, ordered == stored {
                values["tags"] = storedText.databaseValue
            } else {
                values["tags"] = String(decoding: try JSONEncoder().encode(ordered), as: UTF8.self).databaseValue
            }
        case .topic:
            // Taken out of its curriculum (none), or moved to one not here yet: no row (it waits for its curriculum).
            guard let parent = String.fromDatabaseValue(values["curriculumID"] ?? .null),
                  try Curriculum.exists(db, key: parent) else {
                try db.execute(sql: "DELETE FROM topic WHERE id = ?", arguments: [item])
                if db.changesCount > 0 { try Store.enqueue(db, .topic, item, at: now, link: linkNew) }
                return
            }
        case .session:
            for (field, table) in [("curriculumID", "curriculum"), ("topicID", "topic")] {
                if let id = String.fromDatabaseValue(values[field] ?? .null),
                   try !(Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE id = ?)", arguments: [id]) ?? false) {
                    values[field] = .null
                }
            }
        case .curriculum:
            break
        }
        let columns = values.keys.sorted()
        let quoted = columns.map { "\"\($0)\"" }
        if let old = try Row.fetchOne(db, sql: "SELECT \(quoted.joined(separator: ", ")) FROM \(e.table) WHERE id = ?", arguments: [item]),
           columns.allSatisfy({ (old[$0] as DatabaseValue) == values[$0] }) {
            return
        }
        try db.execute(sql: """
            INSERT INTO \(e.table)(id, \(quoted.joined(separator: ", "))) VALUES (?\(String(repeating: ", ?", count: columns.count)))
            ON CONFLICT(id) DO UPDATE SET \(quoted.map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
            """, arguments: StatementArguments([item.databaseValue] + columns.map { values[$0]! }))
        if let kind = outboxKind(e) { try Store.enqueue(db, kind, item, at: now, link: linkNew) }
    }

    static func projectLink(_ db: Database, _ from: String, _ to: String) throws {
        let row = try Row.fetchOne(db, sql: "SELECT added, removed, origin, weight, created FROM syncLink WHERE fromID = ? AND toID = ?", arguments: [from, to])
        let added: String? = row?["added"]
        let removed: String? = row?["removed"]
        let present = added != nil && (removed == nil || added! >= removed!)
        if present, let row, try Store.memoryExists(db, from), try Store.memoryExists(db, to) {
            let created: String? = row["created"]
            try db.execute(sql: """
                INSERT INTO link(fromID, toID, origin, weight, created) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(fromID, toID) DO UPDATE SET origin = excluded.origin, weight = excluded.weight, created = excluded.created
                """, arguments: [from, to, row["origin"] as String, row["weight"] as Double, created ?? "1970-01-01 00:00:00.000"])
        } else {
            try db.execute(sql: "DELETE FROM link WHERE fromID = ? AND toID = ?", arguments: [from, to])
        }
    }
}
