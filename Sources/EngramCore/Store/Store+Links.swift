import Foundation
import GRDB

extension Store {
    /// Links two memories (either order); an existing link keeps the stronger weight and a manual origin wins.
    public func link(_ a: String, _ b: String, origin: LinkOrigin, weight: Double = 1) throws {
        guard a != b else { throw EngramError.invalidInput("a memory cannot be linked to itself") }
        let now = clock()
        try write("link the memories") { db in try Store.link(db, a, b, origin: origin, weight: weight, at: now) }
    }

    /// Links in `db` at clock reading `at`; `created` (default `at`) is the link's own date (an import's, from its file).
    static func link(_ db: Database, _ a: String, _ b: String, origin: LinkOrigin, weight: Double, at: Date, created: Date? = nil) throws {
        let created = created ?? at
        let (from, to) = a < b ? (a, b) : (b, a)
        for id in [from, to] where try !memoryExists(db, id) {
            throw EngramError.notFound("no memory with id '\(id)' to link")
        }
        // Cached statements: automatic linking stores thousands of links in one transaction.
        try db.cachedStatement(sql: """
            INSERT INTO link(fromID, toID, origin, weight, created) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT(fromID, toID) DO UPDATE SET
              weight = max(weight, excluded.weight),
              origin = CASE WHEN link.origin = 'manual' OR excluded.origin = 'manual' THEN 'manual' ELSE 'auto' END
            """).execute(arguments: [from, to, origin.rawValue, weight, created])
        try SyncLog.record(db, at: at) { r in try r.link(from, to, add: true, origin: origin, weight: weight, created: created) }
    }

    /// Whether a memory with this id is stored.
    static func memoryExists(_ db: Database, _ id: String) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM memory WHERE id = ?)"), arguments: [id]) ?? false
    }

    /// Removes the link between two memories; returns whether there was one.
    @discardableResult
    public func unlink(_ a: String, _ b: String) throws -> Bool {
        let (from, to) = a < b ? (a, b) : (b, a)
        let now = clock()
        return try write("unlink the memories") { db in
            try db.execute(sql: "DELETE FROM link WHERE fromID = ? AND toID = ?", arguments: [from, to])
            let removed = db.changesCount > 0
            if removed { try SyncLog.record(db, at: now) { r in try r.link(from, to, add: false) } }
            return removed
        }
    }

    /// The links touching `id`, strongest first.
    public func links(of id: String) throws -> [MemoryLink] {
        try read { db in
            try MemoryLink.filter(MemoryLink.Columns.fromID == id || MemoryLink.Columns.toID == id)
                .order(MemoryLink.Columns.weight.desc).fetchAll(db)
        }
    }

    /// Every link, for export.
    public func allLinks() throws -> [MemoryLink] {
        try read { db in try MemoryLink.order(MemoryLink.Columns.fromID, MemoryLink.Columns.toID).fetchAll(db) }
    }

    /// Inserts links in bulk (import); links whose ends are missing are counted, not fatal. Recorded at this clock's
    /// reading (a file's date never moves the sync clock), each with its own date unless that is more than a day
    /// ahead (`notAhead`).
    @discardableResult
    public func importLinks(_ links: [MemoryLink]) throws -> Int {
        let now = clock()
        return try write("import links") { db in
            var skipped = 0
            for l in links {
                guard l.fromID != l.toID, try Memory.exists(db, key: l.fromID), try Memory.exists(db, key: l.toID) else { skipped += 1; continue }
                try Store.link(db, l.fromID, l.toID, origin: l.origin, weight: l.weight, at: now,
                               created: Store.notAhead(l.created, of: now))
            }
            return skipped
        }
    }
}
