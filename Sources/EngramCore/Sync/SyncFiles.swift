import Foundation

/// Plain file operations on the sync folder: segment names, appends with fsync, bounded reads (atomic replacement
/// is `DurableFile`'s).
///
/// Layout: `<folder>/devices/<device-id>/ops-<n>.jsonl`, one operation per newline-terminated line. Only the device
/// named writes its folder, so a file sync (Syncthing) never sees two writers of one file.
enum SyncFiles {
    /// The segment file name pattern's parts.
    static let prefix = "ops-", suffix = ".jsonl"
    /// A segment is closed and a new one started past this size.
    static let segmentLimit = 8 * 1024 * 1024

    /// The number of a segment file name, or nil when the name is not one (temporary and conflict files included).
    static func segmentNumber(_ name: String) -> Int? {
        guard name.hasPrefix(prefix), name.hasSuffix(suffix) else { return nil }
        let digits = name.dropFirst(prefix.count).dropLast(suffix.count)
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy(\.isASCII), let n = Int(digits) else { return nil }
        return n
    }

    static func segmentName(_ n: Int) -> String { "\(prefix)\(n)\(suffix)" }

    /// Whether a name is a file another program left: Syncthing's temporary files and conflict copies.
    static func isForeign(_ name: String) -> Bool { name.hasPrefix(".syncthing.") || name.contains(".sync-conflict-") }

    /// The segments in `dir`, in order.
    static func segments(in dir: String) -> [(n: Int, name: String)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.compactMap { name in segmentNumber(name).map { (n: $0, name: name) } }.sorted { $0.n < $1.n }
    }

    /// The size of a file, or nil.
    static func size(_ path: String) -> Int? {
        var st = stat()
        return stat(path, &st) == 0 ? Int(st.st_size) : nil
    }

    /// Appends `data` to `path` (created 0600), then fsyncs it (and its folder when the file is new).
    static func append(_ data: Data, to path: String) throws {
        let isNew = size(path) == nil
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw EngramError.io("cannot open \(path) to append: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        try DurableFile.writeAll(fd, data, path: path)
        guard fsync(fd) == 0 else { throw EngramError.io("cannot save \(path): \(String(cString: strerror(errno)))") }
        if isNew { DurableFile.syncDirectory(containing: path) }
    }

    /// Cuts an incomplete last line off `path` (an append a crash interrupted), so the next append starts a line
    /// of its own; the operations it held are still pending in the store and are written again.
    static func dropIncompleteTail(_ path: String) throws {
        guard let size = size(path), size > 0, let data = read(path, from: 0), data.last != 0x0A else { return }
        let keep = data.lastIndex(of: 0x0A).map { $0 - data.startIndex + 1 } ?? 0
        guard truncate(path, off_t(keep)) == 0 else {
            throw EngramError.io("cannot repair \(path) (an interrupted write): \(String(cString: strerror(errno)))")
        }
    }

    /// The bytes of `path` from `offset` on (at most `limit` of them), or nil when it cannot be read.
    static func read(_ path: String, from offset: Int, limit: Int = .max) -> Data? {
        guard let h = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? h.close() }
        do {
            try h.seek(toOffset: UInt64(offset))
            return try (limit == .max ? h.readToEnd() : h.read(upToCount: limit)) ?? Data()
        } catch {
            return nil
        }
    }

    /// The offset of the first newline in `path` at or after `offset`, read a megabyte at a time; nil when there is none.
    static func newline(in path: String, from offset: Int) -> Int? {
        var at = offset
        while let data = read(path, from: at, limit: 1 << 20), !data.isEmpty {
            if let nl = data.firstIndex(of: 0x0A) { return at + (nl - data.startIndex) }
            at += data.count
        }
        return nil
    }
}
