import Dispatch
import Glibc

/// The daemon's one folder watcher: an inotify descriptor over some folders (each added by name, not recursive)
/// that calls back when a file in them is written, created, renamed in or removed, or only such a file among
/// `names` when given (and whenever events were lost). The store watcher and the sync folder's wakes both use it.
///
/// Nil when inotify is unavailable (the user's `fs.inotify.max_user_instances` is used up): callers then poll.
final class FolderWatch: @unchecked Sendable {
    /// What a sync folder's watch hears: files written, created, renamed in or removed.
    static let anyChange = UInt32(IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_TO | IN_CREATE | IN_DELETE)
    /// What the store's watch hears: SQLite appending to its WAL or writing the store at a checkpoint.
    static let writes = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE)

    private let fd: Int32
    private let mask: UInt32
    private let source: any DispatchSourceRead

    init?(queue: DispatchQueue, names: Set<String>? = nil, mask: UInt32 = FolderWatch.anyChange,
          onEvent: @escaping @Sendable () -> Void) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        self.fd = fd
        self.mask = mask | UInt32(IN_Q_OVERFLOW)
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler {
            if Self.drain(fd, names: names) { onEvent() }
        }
        source.setCancelHandler { Glibc.close(fd) }
        source.resume()
    }

    /// Watches `directory` (adding it again changes nothing); nil when it is watched, else why it cannot be.
    @discardableResult
    func add(_ directory: String) -> String? {
        guard inotify_add_watch(fd, directory, mask) < 0 else { return nil }
        return String(cString: strerror(errno))
    }

    /// Stops watching.
    func cancel() { source.cancel() }

    /// A file's identity, size and change time (zeros when it does not exist): what polling compares.
    static func fingerprint(_ path: String) -> [Int64] {
        var st = stat()
        guard stat(path, &st) == 0 else { return [0, 0, 0, 0] }
        return [Int64(st.st_ino), Int64(st.st_size), Int64(st.st_mtim.tv_sec), Int64(st.st_mtim.tv_nsec)]
    }

    /// Reads every queued event; true if one concerned a file of `names` (any file when nil) or events were lost.
    private static func drain(_ fd: Int32, names: Set<String>?) -> Bool {
        var relevant = false
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            guard let names else { relevant = true; continue }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let (mask, length) = buffer.withUnsafeBytes { raw -> (UInt32, Int) in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.mask, Int(event.len))
                }
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    relevant = true
                } else if length > 0 {
                    let start = offset + header
                    let bytes = buffer[start..<min(start + length, count)].prefix { $0 != 0 }
                    if names.contains(String(decoding: bytes, as: UTF8.self)) { relevant = true }
                }
                offset += header + length
            }
        }
        return relevant
    }
}
