import Foundation
import GRDB

extension Store {
    /// A stored setting, or nil.
    public func setting(_ key: String) throws -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key]) }
    }

    /// Stores a setting; nil removes it.
    public func setSetting(_ key: String, _ value: String?) throws {
        try write("save the setting") { db in
            if let value {
                try db.execute(sql: "INSERT INTO setting(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", arguments: [key, value])
            } else {
                try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [key])
            }
        }
    }

    /// The active context (`work`, `personal`, `sleep`, custom), or nil for everything.
    public func activeContext() throws -> String? { try setting("context") }

    /// The context a new memory gets when its capture names none: the active one, except `sleep` (which is a state of
    /// the person, not a place to file things), so a memory captured while working shows in the work context.
    public func captureContext() throws -> String? {
        let ctx = try activeContext()
        return ctx == "sleep" || ctx?.isEmpty == true ? nil : ctx
    }

    /// The stats the active context shows: that context's memories, or nothing while `sleep` is on.
    public func statsInActiveContext(now: Date, decay: DecayModel, timeZone: TimeZone = .current) throws -> (stats: MemoryStats, context: String?) {
        let ctx = try activeContext()
        if ctx == "sleep" { return (MemoryStats(), ctx) }
        return (try stats(now: now, decay: decay, context: ctx, timeZone: timeZone), ctx)
    }

    /// Logs a search (query text kept only in the activity log, which `privacy clear-activity` empties).
    public func logSearch(_ query: String, source: String?) throws {
        let now = clock()
        try write("log the search") { db in try Store.log(db, .search, detail: String(query.prefix(200)), source: source, at: now) }
    }

    /// Recent activity, newest first.
    public func activity(limit: Int) throws -> [Activity] {
        try read { db in try Activity.order(Activity.Columns.at.desc).limit(limit).fetchAll(db) }
    }
}
