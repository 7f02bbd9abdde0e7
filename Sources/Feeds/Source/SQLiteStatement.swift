internal import CSQLite

/// One prepared SQLite statement, finalized when released.
final class SQLiteStatement {
    private let db: OpaquePointer
    private let handle: OpaquePointer

    /// Prepares `sql` on `db`.
    init(_ db: OpaquePointer, _ sql: String) throws(SQLiteFailure) {
        var st: OpaquePointer?
        let rc = sqlite3_prepare_v2(db, sql, -1, &st, nil)
        guard rc == SQLITE_OK, let st else { throw SQLiteFailure(db: db, code: rc) }
        self.db = db
        handle = st
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds parameters (1-based, in order) after resetting the statement.
    func bind(_ values: [SQLiteValue]) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (n, v) in values.enumerated() {
            let i = Int32(n + 1)
            switch v {
            case .text(let s): sqlite3_bind_text(handle, i, s, -1, csqlite_transient())
            case .int(let x): sqlite3_bind_int64(handle, i, Int64(x))
            }
        }
    }

    /// Moves to the next row; false when there are no more.
    func step() throws(SQLiteFailure) -> Bool {
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw SQLiteFailure(db: db, code: rc)
    }

    /// Whether column `i` is NULL.
    func isNull(_ i: Int32) -> Bool { sqlite3_column_type(handle, i) == SQLITE_NULL }

    /// Column `i` as text, whatever its storage; bytes that are not UTF-8 become U+FFFD, never a crash.
    func text(_ i: Int32) -> String? {
        if isNull(i) { return nil }
        let p = sqlite3_column_blob(handle, i)
        let n = Int(sqlite3_column_bytes(handle, i))
        guard let p, n > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: p, count: n), as: UTF8.self)
    }

    /// Column `i` as an integer (0 for NULL).
    func int(_ i: Int32) -> Int { Int(sqlite3_column_int64(handle, i)) }

    /// Column `i` as a real (0 for NULL).
    func double(_ i: Int32) -> Double { sqlite3_column_double(handle, i) }

    /// Column `i` as an instant: the store's date text, or a number of seconds since 1970.
    func instant(_ i: Int32) -> Double? {
        switch sqlite3_column_type(handle, i) {
        case SQLITE_INTEGER, SQLITE_FLOAT: return sqlite3_column_double(handle, i)
        case SQLITE_NULL: return nil
        default: return text(i).flatMap(Timestamp.parse)
        }
    }
}

/// A parameter value.
enum SQLiteValue {
    case text(String)
    case int(Int)
}

/// A SQLite result code with its message.
struct SQLiteFailure: Error {
    var code: Int32
    var message: String

    init(db: OpaquePointer?, code: Int32) {
        self.code = code
        message = db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
    }
}
