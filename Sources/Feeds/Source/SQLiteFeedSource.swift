#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
internal import CSQLite

/// The store, read through the SQLite C API: opened read-only, never migrated, never written.
///
/// It links nothing but libsqlite3, so a bar can start it every few seconds. Each feed reads inside one
/// read transaction (`read(_:)`), so it sees one consistent snapshot while `engram` writes (WAL).
public final class SQLiteFeedSource: FeedSource {
    /// The store file.
    public let path: String
    private let db: OpaquePointer
    private var statements: [String: SQLiteStatement] = [:]

    static let useActions = "('open','activate','review','pin')"

    /// Opens the store at `path` read-only; a missing file is a `.missing` error that says how to make one.
    public init(path: String) throws(FeedSourceError) {
        self.path = path
        guard access(path, F_OK) == 0 else {
            throw FeedSourceError(.missing, "no Engram store at \(path) yet; capture something with `engram remember`")
        }
        var handle: OpaquePointer?
        let rc = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let handle else {
            let failure = SQLiteFailure(db: handle, code: rc)
            sqlite3_close_v2(handle)
            throw Self.explain(failure, path: path)
        }
        db = handle
        sqlite3_busy_timeout(db, 500)
        sqlite3_exec(db, "PRAGMA query_only = 1", nil, nil, nil)
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(db)
    }

    /// Runs `body` in one read transaction, so every query sees the same state of the store.
    public func read<T>(_ body: () throws -> T) throws -> T {
        try run { () throws(SQLiteFailure) in
            let rc = sqlite3_exec(db, "BEGIN", nil, nil, nil)
            guard rc == SQLITE_OK else { throw SQLiteFailure(db: db, code: rc) }
        }
        defer { sqlite3_exec(db, "COMMIT", nil, nil, nil) }
        return try body()
    }

    public func setting(_ key: String) throws -> String? {
        try query("SELECT value FROM setting WHERE key = ?", [.text(key)]) { $0.text(0) }.first ?? nil
    }

    public func memoryFacts() throws -> [MemoryFacts] {
        var links: [String: Int] = [:]
        for (id, n) in try query("SELECT id, count(*) FROM (SELECT fromID AS id FROM link UNION ALL SELECT toID FROM link) GROUP BY id", [], {
            ($0.text(0) ?? "", $0.int(1))
        }) { links[id] = n }
        return try query("SELECT \(Self.factColumns) FROM memory ORDER BY created, id", []) { row in
            Self.facts(row, links: links[row.text(0) ?? ""] ?? 0)
        }
    }

    public func memories(ids: [String]) throws -> [FeedMemory] {
        var out: [FeedMemory] = []
        for id in ids {
            let found = try query("""
                SELECT \(Self.factColumns), content, (SELECT count(*) FROM link WHERE fromID = memory.id OR toID = memory.id)
                FROM memory WHERE id = ?
                """, [.text(id)]) { row in
                FeedMemory(facts: Self.facts(row, links: row.int(9)), content: row.text(8) ?? "")
            }
            out += found
        }
        return out
    }

    public func memoryFacts(ids: [String]) throws -> [MemoryFacts] {
        var out: [MemoryFacts] = []
        for id in ids {
            out += try query("""
                SELECT \(Self.factColumns),
                       (SELECT count(*) FROM link WHERE fromID = memory.id) + (SELECT count(*) FROM link WHERE toID = memory.id)
                FROM memory WHERE id = ?
                """, [.text(id)]) { Self.facts($0, links: $0.int(8)) }
        }
        return out
    }

    /// The index `fadingGroups()` and `scan` walk.
    static let fadingIndex = StoreSchema.memoryFadingIndex

    /// Nil when the store predates the index, or holds dates that are not text (their order in SQL would
    /// not be their order in time); both leave the caller to read every memory.
    public func fadingGroups() throws -> [FadingGroup]? {
        let indexed = try query(StoreSchema.hasRunSQL(.memoryFadingIndex), []) { _ in true }
        guard !indexed.isEmpty else { return nil }
        let types = try query("""
            SELECT (SELECT typeof(min(lastReinforced)) FROM memory), (SELECT typeof(max(lastReinforced)) FROM memory),
                   (SELECT typeof(min(created)) FROM memory), (SELECT typeof(max(created)) FROM memory)
            """, []) { row in (0..<4).map { row.text(Int32($0)) ?? "" } }.first ?? []
        guard types.allSatisfy({ $0 == "text" || $0 == "null" }) else { return nil }
        var groups: [FadingGroup] = []
        let select = "SELECT type, useCount, pinned FROM memory INDEXED BY \(Self.fadingIndex) WHERE "
        let order = " ORDER BY type, useCount, pinned LIMIT 1"
        var next = try query(select + "1" + order, [], Self.group).first
        while let g = next {
            groups.append(g)
            next = try query(select + "type = ? AND useCount = ? AND pinned > ?" + order, [.text(g.type), .int(g.useCount), .int(g.pinned)], Self.group).first
            if next == nil { next = try query(select + "type = ? AND useCount > ?" + order, [.text(g.type), .int(g.useCount)], Self.group).first }
            if next == nil { next = try query(select + "type > ?" + order, [.text(g.type)], Self.group).first }
        }
        return groups
    }

    private static func group(_ row: SQLiteStatement) -> FadingGroup {
        FadingGroup(type: row.text(0) ?? "", useCount: row.int(1), pinned: row.int(2))
    }

    public func scan(_ group: FadingGroup, context: String?, createdBefore: Double?, from: Double?, before: Double, after: Double?,
                     _ body: (MemoryFacts) -> Bool) throws {
        var sql = "SELECT id, type, '[]', context, created, lastReinforced, useCount, pinned FROM memory INDEXED BY \(Self.fadingIndex) "
            + "WHERE type = ? AND useCount = ? AND pinned = ? AND lastReinforced < ?"
        var args: [SQLiteValue] = [.text(group.type), .int(group.useCount), .int(group.pinned), .text(Timestamp.storeText(before))]
        // One lower bound only, so SQLite seeks to it (`after` comes from a row at or after `from`).
        if let after {
            sql += " AND lastReinforced > ?"
            args.append(.text(Timestamp.storeText(after)))
        } else if let from {
            sql += " AND lastReinforced >= ?"
            args.append(.text(Timestamp.storeText(from)))
        }
        if let createdBefore {
            sql += " AND created < ?"
            args.append(.text(Timestamp.storeText(createdBefore)))
        }
        if let context {
            sql += " AND context = ?"
            args.append(.text(context))
        }
        try each(sql + " ORDER BY lastReinforced, id", args) { body(Self.facts($0, links: 0)) }
    }

    public func reinforced(since instant: Double, context: String?, createdBefore: Double?) throws -> [MemoryFacts] {
        var sql = "SELECT id, type, '[]', context, created, lastReinforced, useCount, pinned FROM memory "
        var args: [SQLiteValue] = []
        if let createdBefore {
            sql += "INDEXED BY memory_created WHERE created < ? AND lastReinforced >= ?"
            args = [.text(Timestamp.storeText(createdBefore)), .text(Timestamp.storeText(instant))]
        } else {
            sql += "INDEXED BY memory_lastReinforced WHERE lastReinforced >= ?"
            args = [.text(Timestamp.storeText(instant))]
        }
        if let context {
            sql += " AND context = ?"
            args.append(.text(context))
        }
        return try query(sql, args) { Self.facts($0, links: 0) }
    }

    public func hasMemory(createdBefore instant: Double, context: String?) throws -> Bool {
        let sql = "SELECT 1 FROM memory WHERE created < ?" + (context == nil ? "" : " AND context = ?") + " LIMIT 1"
        return try !query(sql, [.text(Timestamp.storeText(instant))] + (context.map { [.text($0)] } ?? [])) { _ in true }.isEmpty
    }

    public func newestFacts(context: String?, limit: Int) throws -> [MemoryFacts] {
        var out: [MemoryFacts] = []
        guard limit > 0 else { return out }
        let sql = "SELECT \(Self.factColumns) FROM memory" + (context == nil ? "" : " WHERE context = ?") + " ORDER BY created DESC, id DESC"
        try each(sql, context.map { [.text($0)] } ?? []) { row in
            out.append(Self.facts(row, links: 0))
            return out.count < limit
        }
        return out
    }

    static let factColumns = "id, type, tags, context, created, lastReinforced, useCount, pinned"

    /// Facts from the first eight columns, in `factColumns` order.
    private static func facts(_ row: SQLiteStatement, links: Int) -> MemoryFacts {
        let created = row.instant(4) ?? 0
        return MemoryFacts(
            id: row.text(0) ?? "", kind: MemoryType(storeValue: row.text(1) ?? ""), tags: JSONStringArray.decode(row.text(2) ?? "[]"),
            context: row.text(3), created: created, lastReinforced: row.instant(5) ?? created,
            useCount: row.int(6), pinned: row.int(7) != 0, links: links)
    }

    public func activities(since: Double) throws -> [ActivityFact] {
        try query("""
            SELECT memoryID, action, at FROM activity
            WHERE at >= ? AND memoryID IS NOT NULL AND action IN \(Self.useActions)
            ORDER BY at, id
            """, [.text(Timestamp.storeText(since))]) { row in
            ActivityFact.Action(rawValue: row.text(1) ?? "").flatMap { action in
                row.instant(2).map { ActivityFact(memoryID: row.text(0) ?? "", action: action, at: $0) }
            }
        }.compactMap { $0 }
    }

    public func lastUse(of id: String, before: Double) throws -> Double? {
        try query("SELECT max(at) FROM activity WHERE memoryID = ? AND at < ? AND action IN \(Self.useActions)",
                  [.text(id), .text(Timestamp.storeText(before))]) { $0.instant(0) }.first ?? nil
    }

    /// The newest active session, passing over captures whose process has died (killed before it could end
    /// them; the next `engram` command or the daemon ends them as interrupted, as `Store.endOrphanedCaptures`).
    /// `/proc` is read only for a capture with a recorded host; stores from before migration `v5-session-host`
    /// record none, and their sessions show as they are.
    public func activeSession() throws -> FeedSession? {
        let host = try query(StoreSchema.hasRunSQL(.sessionHost), []) { _ in true }.isEmpty ? "NULL" : "host"
        var found: FeedSession?
        try each("""
            SELECT id, kind, title, state, started, resumed, accumulatedSeconds, progressDone, progressTotal, curriculumID, topicID, \(host)
            FROM session WHERE state IN ('running','paused') ORDER BY started DESC
            """, []) { row in
            if row.text(1) == FeedSession.Kind.capture.rawValue, let host = row.text(11), !ProcessIdentity.isAlive(host) { return true }
            found = FeedSession(
                id: row.text(0) ?? "", kind: FeedSession.Kind(rawValue: row.text(1) ?? "") ?? .capture,
                title: row.text(2) ?? "", state: FeedSession.State(rawValue: row.text(3) ?? "") ?? .running,
                started: row.instant(4) ?? 0, resumed: row.instant(5), accumulatedSeconds: row.double(6),
                progressDone: row.int(7), progressTotal: row.int(8), curriculumID: row.text(9), topicID: row.text(10))
            return false
        }
        return found
    }

    public func collectionCounts() throws -> CollectionCounts {
        try query("""
            SELECT (SELECT count(*) FROM link), (SELECT count(*) FROM curriculum),
                   (SELECT count(*) FROM topic), (SELECT count(*) FROM topic WHERE done)
            """, []) { CollectionCounts(links: $0.int(0), curricula: $0.int(1), topics: $0.int(2), topicsDone: $0.int(3)) }
            .first ?? CollectionCounts()
    }

    /// The rows of `sql` mapped by `row`, reusing prepared statements.
    private func query<T>(_ sql: String, _ args: [SQLiteValue], _ row: (SQLiteStatement) -> T) throws -> [T] {
        try run { () throws(SQLiteFailure) -> [T] in
            let st = try statement(sql)
            st.bind(args)
            var out: [T] = []
            while try st.step() { out.append(row(st)) }
            return out
        }
    }

    /// Steps through the rows of `sql` while `row` returns true.
    private func each(_ sql: String, _ args: [SQLiteValue], _ row: (SQLiteStatement) -> Bool) throws {
        try run { () throws(SQLiteFailure) in
            let st = try statement(sql)
            st.bind(args)
            while try st.step() { if !row(st) { break } }
            st.bind([])
        }
    }

    /// The prepared statement for `sql`, prepared once.
    private func statement(_ sql: String) throws(SQLiteFailure) -> SQLiteStatement {
        if let cached = statements[sql] { return cached }
        let st = try SQLiteStatement(db, sql)
        statements[sql] = st
        return st
    }

    private func run<T>(_ body: () throws(SQLiteFailure) -> T) throws(FeedSourceError) -> T {
        do {
            return try body()
        } catch {
            throw Self.explain(error, path: path)
        }
    }

    /// A sentence a person can act on.
    static func explain(_ e: SQLiteFailure, path: String) -> FeedSourceError {
        switch e.code & 0xFF {
        case SQLITE_NOTADB, SQLITE_CORRUPT:
            return FeedSourceError(.unreadable, "the store at \(path) is damaged (\(e.message)); restore it from a backup or an `engram export`")
        case SQLITE_BUSY, SQLITE_LOCKED:
            return FeedSourceError(.unreadable, "the store at \(path) is busy; the feed will show again on its next update")
        case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_AUTH, SQLITE_READONLY:
            return FeedSourceError(.unreadable, "cannot open the store at \(path): \(e.message)")
        default:
            if e.message.hasPrefix("no such table") || e.message.hasPrefix("no such column") {
                return FeedSourceError(.unreadable, "the store at \(path) is not set up for this version (\(e.message)); run any `engram` command once to update it")
            }
            return FeedSourceError(.unreadable, "cannot read the store at \(path): \(e.message)")
        }
    }
}
