#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A process named so that the name outlives pid reuse and reboots: `pid:start:boot`, where `start` is the
/// process's start time in clock ticks after boot (`/proc/PID/stat`, field 22) and `boot` the kernel's boot id.
///
/// A session's host is stored this way, so anyone can tell whether the process that hosts a session (the
/// `engram capture` taking its lines, the daemon or `--follow` showing its notification) still runs. Foundation-free,
/// so the lean feed asks the same question the core does.
public enum ProcessIdentity {
    /// This process.
    public static let current: String = identity(of: getpid()) ?? "\(getpid()):0:\(bootID)"

    /// The identity of the running process `pid`, or nil when none runs (a zombie has stopped running).
    public static func identity(of pid: Int32) -> String? {
        guard pid > 0, let text = contents("/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else { return nil }
        // After the command name in parentheses: state (field 3) … starttime (field 22).
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let state = fields[0].first, state != "Z", state != "X",
              let start = UInt64(fields[19]) else { return nil }
        return "\(pid):\(start):\(bootID)"
    }

    /// Whether the process named `identity` still runs.
    public static func isAlive(_ identity: String) -> Bool {
        guard let pid = pid(of: identity) else { return false }
        return Self.identity(of: pid) == identity
    }

    /// The pid in `identity`.
    public static func pid(of identity: String) -> Int32? {
        identity.split(separator: ":").first.flatMap { Int32($0) }
    }

    /// The kernel's id for this boot, read once.
    static let bootID: String = {
        var id = Substring(contents("/proc/sys/kernel/random/boot_id") ?? "unknown")
        while let c = id.first, c.isWhitespace { id.removeFirst() }
        while let c = id.last, c.isWhitespace { id.removeLast() }
        return String(id)
    }()

    /// The whole of a (/proc) file, whose size `stat` does not tell; nil when it cannot be read or is not UTF-8.
    static func contents(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { return nil }
            if n == 0 { break }
            bytes.append(contentsOf: buffer[0..<n])
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
