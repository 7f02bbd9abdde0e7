import CXapian
import EngramCore
import Foundation
import Synchronization

/// A count this process moves on at every change it makes to an index: a writer opened, a commit, a writer closed,
/// and (`note()`) any other change its owner makes, such as a compaction's swap. While the process holds the only
/// writer (Xapian allows one), a reader in it whose index was current at some count is still current while the count
/// stands still, without asking Xapian (the daemon's searches, one per keystroke).
public enum IndexChanges {
    private static let counter = Atomic<UInt64>(1)

    /// The count now.
    public static var count: UInt64 { counter.load(ordering: .acquiring) }

    /// Moves the count on: call after the change is made.
    public static func note() {
        counter.add(1, ordering: .releasing)
    }
}

/// The single writer of the index; use it from one thread at a time.
///
/// Changes become visible to readers (and durable) only at `commit(lastAppliedSeq:)`,
/// which stores the outbox sequence number in the same atomic commit. `close()`
/// discards uncommitted changes.
public final class IndexWriter {
    /// The path the writer was opened at (stub file or database directory).
    public let path: String
    private var handle: OpaquePointer?
    private var committedReader: IndexReader?

    private init(path: String, handle: OpaquePointer) {
        self.path = path
        self.handle = handle
    }

    deinit {
        if handle != nil {
            cx_writer_destroy(handle)
            Self.noteReleased(path)
        }
    }

    /// When this process last let go of the write lock of each path (`DispatchTime` nanoseconds), within the grace.
    private static let releases = Mutex<[String: UInt64]>([:])
    /// How long after this process let go of a path's write lock it waits for the lock to come back before saying
    /// `.locked`. Xapian's lock is an open-file-description lock, which lives while any copy of its descriptor is
    /// open; a process that another thread is starting (`posix_spawn`: every `Process` run) holds copies of all
    /// descriptors until it execs, close-on-exec or not. So a lock just let go of can still be held for a moment by
    /// a child that is about to become another program. A lock this process did not just let go of is someone
    /// else's, and `.locked` comes at once (a command then hands its work to the daemon without waiting).
    static let releaseGraceNanoseconds: UInt64 = 1_000_000_000

    /// Records that this process just let go of the write lock of `path` (a writer closed).
    private static func noteReleased(_ path: String) {
        let now = DispatchTime.now().uptimeNanoseconds
        releases.withLock { r in
            r = r.filter { now &- $0.value < releaseGraceNanoseconds }
            r[path] = now
        }
    }

    /// Whether a `.locked` at `path` now may be the echo of this process's own lock, let go of within the grace.
    private static func releasedJustNow(_ path: String) -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        return releases.withLock { r in r[path].map { now &- $0 < releaseGraceNanoseconds } ?? false }
    }

    /// Opens the index at path for writing; throws `.locked` if another writer holds it: at once, or within a second
    /// when this process has just let go of that path's lock itself (`releaseGraceNanoseconds`).
    ///
    /// With `create` and nothing at path, creates an empty index laid out as `IndexLayout`
    /// describes: a stub file at path and its first generation in `<path>.d/`.
    public static func open(at path: String, create: Bool = true) throws -> IndexWriter {
        if create && !FileManager.default.fileExists(atPath: path) {
            if let writer = try IndexLayout.createIndex(stubPath: path) {
                IndexChanges.note()
                return IndexWriter(path: path, handle: writer)
            }
            // Someone else created it first: open theirs like any existing index.
        }
        var handle: OpaquePointer?
        while true {
            let failure: IndexError?
            do {
                try shimCall { cx_writer_open(path, create ? 1 : 0, &handle, $0) }
                failure = nil
            } catch {
                failure = error
            }
            guard let failure else { break }
            guard case .locked = failure, releasedJustNow(path) else { throw failure }
            usleep(5_000)  // a child of this process still holds the lock it let go of: it is about to exec
        }
        IndexChanges.note()
        return IndexWriter(path: path, handle: handle!)
    }

    /// Adds a document, or replaces the one with the same kind and id (its old words leave the spelling data).
    public func upsert(_ doc: IndexDocument) throws {
        let handle = try openHandle()
        let arena = ByteArena()
        var fields = Self.fields(for: doc, in: arena)
        try shimCall { cx_writer_replace(handle, &fields, $0) }
    }

    /// The shim's view of a document, its bytes owned by arena.
    static func fields(for doc: IndexDocument, in arena: ByteArena, days: inout DayCache) -> cx_document_fields {
        cx_document_fields(
            kind: arena.bytes(doc.kind.rawValue),
            id: arena.bytes(doc.id),
            title: arena.bytes(doc.title),
            body: arena.bytes(doc.body),
            type: arena.bytes(doc.type),
            context: arena.bytes(doc.context),
            curriculum: arena.bytes(doc.curriculumID),
            tags: arena.array(doc.tags),
            tag_count: doc.tags.count,
            created: doc.created.timeIntervalSince1970,
            created_day: arena.bytes(days.day(of: doc.created)),
            expiry: doc.expiry?.timeIntervalSince1970 ?? CX_EXPIRY_NEVER,
            data: arena.bytes(DocumentData.encode(doc)))
    }

    /// The shim's view of one document (no day cache).
    static func fields(for doc: IndexDocument, in arena: ByteArena) -> cx_document_fields {
        var days = DayCache()
        return fields(for: doc, in: arena, days: &days)
    }

    /// Remembers the last creation day computed: a bulk import stamps thousands of items with one time.
    struct DayCache {
        private var last: (date: Date, day: String)?

        /// The creation day of date, as `dayString` gives it.
        mutating func day(of date: Date) -> String {
            if let last, last.date == date { return last.day }
            let day = IndexWriter.dayString(date)
            last = (date, day)
            return day
        }
    }

    /// Deletes an item, and its words from the spelling data; deleting a missing item does nothing.
    public func delete(kind: IndexKind, id: String) throws {
        let handle = try openHandle()
        let arena = ByteArena()
        try shimCall { cx_writer_delete(handle, arena.bytes(kind.rawValue), arena.bytes(id), nil, $0) }
    }

    /// Deletes every item of a kind, and their words from the spelling data.
    public func deleteAll(kind: IndexKind) throws {
        let handle = try openHandle()
        let arena = ByteArena()
        try shimCall { cx_writer_delete_kind(handle, arena.bytes(kind.rawValue), nil, $0) }
    }

    /// Makes every change since the last commit durable, atomically with the outbox sequence number.
    public func commit(lastAppliedSeq: Int64) throws {
        let handle = try openHandle()
        try shimCall { cx_writer_commit(handle, lastAppliedSeq, $0) }
        IndexChanges.note()
        IndexLayout.makeFilesPrivate(forStub: path)
    }

    /// The last applied outbox sequence number, 0 when never set.
    public func lastAppliedSeq() throws -> Int64 {
        let handle = try openHandle()
        var seq: Int64 = 0
        try shimCall { cx_writer_last_seq(handle, &seq, $0) }
        return seq
    }

    /// Records, with the next commit, that deleted items' bytes wait in free blocks until a compaction
    /// (`IndexCompactor`); an earlier record is kept, so the delay is counted from the first deletion.
    public func markCompactionDue(now: Date) throws {
        let handle = try openHandle()
        try shimCall { cx_writer_mark_compact_due(handle, now.timeIntervalSince1970, $0) }
    }

    /// When the first deletion not yet compacted away was made, or nil when no compaction is due.
    public func compactionDue() throws -> Date? {
        let handle = try openHandle()
        var since = 0.0
        try shimCall { cx_writer_compact_due(handle, &since, $0) }
        return since > 0 ? Date(timeIntervalSince1970: since) : nil
    }

    /// Deletes items whose expiry is before now (and their spelling words) and returns them; the caller commits.
    public func sweepExpired(now: Date) throws -> [(kind: IndexKind, id: String)] {
        let handle = try openHandle()
        var list: OpaquePointer?
        try shimCall { cx_writer_sweep_expired(handle, now.timeIntervalSince1970, &list, $0) }
        return takeStrings(list).compactMap { identity in
            guard let colon = identity.firstIndex(of: ":"),
                  let kind = IndexKind(rawValue: String(identity[..<colon])) else { return nil }
            return (kind, String(identity[identity.index(after: colon)...]))
        }
    }

    /// Finds memories related to an item (leaving out those expired at `now`), on committed data only.
    public func related(kind: IndexKind, id: String, limit: Int, now: Date = Date(timeIntervalSince1970: WallClock.now())) throws -> [RelatedHit] {
        _ = try openHandle()
        if let committedReader {
            try committedReader.reopen()
        } else {
            committedReader = try IndexReader.open(at: path)
        }
        return try committedReader!.related(kind: kind, id: id, limit: limit, now: now)
    }

    /// Counts documents of a kind (all when nil), including uncommitted changes.
    public func documentCount(kind: IndexKind?) throws -> Int {
        let handle = try openHandle()
        let arena = ByteArena()
        var count: UInt64 = 0
        try shimCall { cx_writer_document_count(handle, arena.bytes(kind?.rawValue), &count, $0) }
        return Int(clamping: count)
    }

    /// Discards uncommitted changes and releases the write lock; the writer cannot be used afterwards.
    public func close() {
        guard handle != nil else { return }
        cx_writer_destroy(handle)
        Self.noteReleased(path)
        handle = nil
        IndexChanges.note()
        committedReader = nil
    }

    /// The shim handle, or `.invalidArgument` once closed.
    private func openHandle() throws(IndexError) -> OpaquePointer {
        guard let handle else { throw IndexError.invalidArgument("the index writer for \(path) is closed") }
        return handle
    }

    /// The creation day as YYYYMMDD in the current time zone, for `created:` ranges.
    static func dayString(_ date: Date) -> String {
        var calendar = gregorian
        calendar.timeZone = .current
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        let year = max(0, min(parts.year ?? 1970, 9999)), month = parts.month ?? 1, day = parts.day ?? 1
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return padded(year, 4) + padded(month, 2) + padded(day, 2)
    }

    /// The calendar creation days are counted in.
    private static let gregorian = Calendar(identifier: .gregorian)
}
