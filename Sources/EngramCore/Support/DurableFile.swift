import Foundation

/// Writes that survive a crash: whole writes, fsync, atomic replacement by rename, fsync of the folder.
///
/// One place for what the sync log's segments and the index stub both need.
public enum DurableFile {
    /// Writes all of `data` to `fd` (retrying short writes and EINTR).
    public static func writeAll(_ fd: Int32, _ data: Data, path: String) throws {
        try data.withUnsafeBytes { buf in
            var off = 0
            while off < buf.count {
                let n = write(fd, buf.baseAddress! + off, buf.count - off)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw EngramError.io("cannot write \(path): \(String(cString: strerror(errno)))")
                }
                off += n
            }
        }
    }

    /// Creates `path` (0600) holding `data`, flushed to disk; with `exclusive`, fails when it exists, else
    /// truncates it. Nothing is left at `path` when it fails.
    public static func create(_ path: String, with data: Data, exclusive: Bool) throws {
        let fd = open(path, O_WRONLY | O_CREAT | (exclusive ? O_EXCL : O_TRUNC) | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw EngramError.io("cannot write \(path): \(String(cString: strerror(errno)))") }
        do {
            try writeAll(fd, data, path: path)
            guard fsync(fd) == 0 else { throw EngramError.io("cannot save \(path): \(String(cString: strerror(errno)))") }
            close(fd)
        } catch {
            close(fd)
            unlink(path)
            throw error
        }
    }

    /// Replaces `temporary`'s destination `path` with it: rename, then fsync of the folder; removes `temporary`
    /// when the rename fails.
    public static func move(_ temporary: String, over path: String) throws {
        guard rename(temporary, path) == 0 else {
            let error = EngramError.io("cannot replace \(path): \(String(cString: strerror(errno)))")
            unlink(temporary)
            throw error
        }
        syncDirectory(containing: path)
    }

    /// Replaces (or creates) `path` with `data` atomically: a temporary file beside it, fsync, rename, fsync of
    /// the folder.
    public static func replace(_ path: String, with data: Data) throws {
        // Per process and call: the CLI and the daemon may replace the same file at once.
        let tmp = (path as NSString).deletingLastPathComponent + "/.engram-" + (path as NSString).lastPathComponent
            + ".\(getpid()).\(UInt32.random(in: 0 ... .max)).tmp"
        try create(tmp, with: data, exclusive: true)
        try move(tmp, over: path)
    }

    /// Flushes a folder's entries (a rename, link or new file) to disk; failures only weaken durability.
    public static func syncDirectory(_ dir: String) {
        let fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 { _ = fsync(fd); close(fd) }
    }

    /// `syncDirectory` of the folder holding `path`.
    public static func syncDirectory(containing path: String) { syncDirectory((path as NSString).deletingLastPathComponent) }
}
