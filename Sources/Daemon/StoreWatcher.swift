import Dispatch
import Foundation
import Glibc

/// Watches the store's files with inotify and calls back when another process writes to it: the daemon's
/// safety net for captures made without a nudge (an `engram` run with no session bus, an import script).
///
/// SQLite in WAL mode appends every committed transaction to `engram.sqlite-wal`, so a write to that
/// file (or to the store file, at a checkpoint) means the store may have changed.
final class StoreWatcher: @unchecked Sendable {
    private let fd: Int32
    private let source: DispatchSourceRead
    private let names: Set<String>

    /// Starts watching `directory` for writes to the named files; `onChange` runs on `queue`.
    init(directory: String, files: Set<String>, queue: DispatchQueue, onChange: @escaping @Sendable () -> Void) throws {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw StoreWatcherError("inotify_init1 failed: \(String(cString: strerror(errno)))") }
        let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_Q_OVERFLOW)
        guard inotify_add_watch(fd, directory, mask) >= 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw StoreWatcherError("cannot watch \(directory): \(reason)")
        }
        names = files
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        let fd = self.fd
        let names = files
        source.setEventHandler {
            if StoreWatcher.drain(fd, names: names) { onChange() }
        }
        source.setCancelHandler { Glibc.close(fd) }
        source.resume()
    }

    /// Stops watching.
    func cancel() {
        source.cancel()
    }

    /// Reads every queued event; true if one concerned a watched file (or events were lost).
    private static func drain(_ fd: Int32, names: Set<String>) -> Bool {
        var relevant = false
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { break }
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

/// A failure to set up the store watcher.
struct StoreWatcherError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
