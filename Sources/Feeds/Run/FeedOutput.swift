#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes whole updates to standard output and standard error, unbuffered.
public enum FeedOutput {
    /// Writes `text` and a newline to standard output in full; false when the reader has gone (EPIPE) or on error.
    @discardableResult
    public static func line(_ text: String) -> Bool { write(1, text + "\n") }

    /// Whether nobody will read standard output any more: the pipe's reader closed it, or the process that
    /// started us (the bar) is gone and we were handed to another parent.
    public static func readerGone(parent: pid_t) -> Bool {
        if getppid() != parent { return true }
        var p = pollfd(fd: 1, events: Int16(POLLOUT), revents: 0)
        return poll(&p, 1, 0) == 1 && (p.revents & Int16(POLLERR | POLLHUP | POLLNVAL)) != 0
    }

    /// Writes `engram: message` to standard error.
    public static func warn(_ message: String) { _ = write(2, "engram: " + message + "\n") }

    private static func write(_ fd: Int32, _ text: String) -> Bool {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }
}
