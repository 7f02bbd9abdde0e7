import Foundation
import GRDB
import Synchronization

/// The source of truth: memories, links, curricula, sessions, activity and the index outbox, in SQLite.
///
/// Every change is written in one transaction together with its outbox row, so the index can always
/// catch up with (or be rebuilt from) the store.
public final class Store: Sendable {
    /// The database (WAL mode; readers never block the writer).
    public let database: DatabasePool
    /// Where the store lives.
    public let path: String
    /// The clock every timestamp comes from (tests pass a fixed one).
    public let clock: @Sendable () -> Date

    /// Told of each change this process makes to a learning session (the handoff activity is published from here).
    private let sessionObserver = Mutex<(@Sendable (Session) -> Void)?>(nil)

    /// Calls `body` after each change this process makes to a learning session: start, pause, resume, stop, next
    /// topic, completion. Changes arriving from peers through sync are not changes made here and are not reported.
    public func observeSessionChanges(_ body: @escaping @Sendable (Session) -> Void) {
        sessionObserver.withLock { $0 = body }
    }

    /// Reports a changed session to the observer (learning sessions only) and returns it.
    func changed(_ s: Session) -> Session {
        if s.kind == .learning, let observer = sessionObserver.withLock({ $0 }) { observer(s) }
        return s
    }

    /// The largest note accepted, in bytes of UTF-8.
    public static let maxContentBytes = 4 * 1024 * 1024

    /// Opens (creating if needed) the store at `path`, private to the user, and migrates it.
    public init(path: String, readOnly: Bool = false, clock: @escaping @Sendable () -> Date = { .wallNow }) throws {
        self.path = path
        self.clock = clock
        let dir = (path as NSString).deletingLastPathComponent
        if !readOnly {
            try EngramPaths.ensurePrivateDirectory(dir)
            // Create the file 0600 first: SQLite gives the -wal and -shm files the same mode.
            let fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
            if fd < 0 {
                throw EngramError.store("cannot open the store at \(path): \(String(cString: strerror(errno)))")
            }
            close(fd)
        } else if !FileManager.default.fileExists(atPath: path) {
            throw EngramError.notFound("no Engram store at \(path) yet; capture something with `engram remember` or run `engram import`")
        }
        var config = Configuration()
        config.readonly = readOnly
        config.busyMode = .timeout(Store.busyTimeout)
        config.foreignKeysEnabled = true
        config.journalMode = .wal
        config.label = "engram"
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // Deleted rows (a forgotten memory) are overwritten with zeros, not left in free pages.
            try db.execute(sql: "PRAGMA secure_delete = ON")
        }
        do {
            database = try DatabasePool(path: path, configuration: config)
            if !readOnly {
                var migrator = DatabaseMigrator()
                Migrations.register(in: &migrator)
                try migrator.migrate(database)
                EngramPaths.tightenFiles(in: dir)
            }
        } catch let e as DatabaseError {
            throw Store.map(e, doing: "open the store at \(path)")
        }
    }

    /// Opens the store of `paths`.
    public convenience init(paths: EngramPaths, readOnly: Bool = false) throws {
        try self.init(path: paths.storePath, readOnly: readOnly)
    }

    /// Runs `body` in one write transaction, mapping SQLite errors to clear messages.
    public func write<T>(_ what: String, _ body: (Database) throws -> T) throws -> T {
        do {
            return try database.write(body)
        } catch let e as DatabaseError {
            throw Store.map(e, doing: what)
        }
    }

    /// Runs `body` in one read transaction.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try database.read(body)
        } catch let e as DatabaseError {
            throw Store.map(e, doing: "read the store")
        }
    }

    /// Runs `body`, which must run a single statement, outside a transaction: one statement reads one snapshot on its
    /// own, and the desktop's per-keystroke reads skip the BEGIN and COMMIT around it.
    public func readOneStatement<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try database.unsafeRead(body)
        } catch let e as DatabaseError {
            throw Store.map(e, doing: "read the store")
        }
    }

    /// The marker of a forget whose old copies are still in the WAL (a reader of an earlier snapshot kept it), beside
    /// the store file: `finishErasing()` (the daemon's chores, every half minute) tries again while it exists.
    public var erasePendingPath: String { path + "-erase-pending" }

    /// After a forget: the zeroed pages (secure_delete) checkpointed into the file and the WAL emptied, so no copy of
    /// what was forgotten stays in it. A reader of a snapshot from before the forget keeps the WAL; after waiting a
    /// second for it, the marker at `erasePendingPath` records that this is still to do. Returns whether it is done.
    @discardableResult
    public func eraseWAL() -> Bool {
        // The marker goes first and comes back on failure: another process's failed erase, between this one's
        // checkpoint and an unlink after it, would otherwise lose its marker.
        Glibc.unlink(erasePendingPath)
        let done = (try? database.writeWithoutTransaction { db -> Bool in
            try db.execute(sql: "PRAGMA busy_timeout = 1000")
            defer { try? db.execute(sql: "PRAGMA busy_timeout = \(Int(Store.busyTimeout * 1000))") }
            _ = try db.checkpoint(.truncate)
            return true
        }) ?? false
        if !done {
            let fd = open(erasePendingPath, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
            if fd >= 0 { close(fd) }
        }
        return done
    }

    /// How long a connection waits for another's lock, in seconds (GRDB's busy mode).
    static let busyTimeout: TimeInterval = 10

    /// Empties the WAL if a forget could not (`erasePendingPath` exists); returns whether anything is still to do.
    @discardableResult
    public func finishErasing() -> Bool {
        guard access(erasePendingPath, F_OK) == 0 else { return false }
        return !eraseWAL()
    }

    /// Turns a SQLite error into a sentence a person can act on.
    static func map(_ e: DatabaseError, doing what: String) -> EngramError {
        switch e.resultCode {
        case .SQLITE_FULL:
            return .store("cannot \(what): the disk is full; nothing was saved. Free some space and try again.")
        case .SQLITE_READONLY:
            return .store("cannot \(what): the data folder is read-only; nothing was saved.")
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return .store("cannot \(what): the store stayed busy for 10 s; nothing was saved. Try again.")
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            return .store("cannot \(what): the store file is damaged (\(e.message ?? "corrupt")). Restore it from a backup or an `engram export`.")
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH:
            return .store("cannot \(what): \(e.message ?? "permission denied").")
        case .SQLITE_IOERR:
            return .store("cannot \(what): the disk could not be written or read (\(e.message ?? "input/output error"); "
                          + "the disk may be full or a file-size limit reached); nothing was saved.")
        default:
            return .store("cannot \(what): \(e.message ?? "\(e.resultCode)")")
        }
    }

    /// Appends an outbox row for `itemID`: the index will re-read that item.
    static func enqueue(_ db: Database, _ kind: OutboxEntry.Kind, _ itemID: String, at: Date, link: Bool = true) throws {
        var entry = OutboxEntry(kind: kind, itemID: itemID, at: at, link: link)
        try entry.insert(db)
    }

    /// Appends an activity row.
    static func log(_ db: Database, _ action: Activity.Action, memoryID: String? = nil, detail: String? = nil, source: String? = nil, at: Date) throws {
        var a = Activity(at: at, action: action, memoryID: memoryID, detail: detail, source: source)
        try a.insert(db)
    }
}
