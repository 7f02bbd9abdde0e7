import Foundation

/// A process named so that the name outlives pid reuse and reboots: `pid:start:boot`, where `start` is the
/// process's start time in clock ticks after boot (`/proc/PID/stat`, field 22) and `boot` the kernel's boot id.
///
/// A session's host is stored this way, so anyone can tell whether the process that hosts a session (the
/// `engram capture` taking its lines, the daemon or `--follow` showing its notification) still runs.
public enum ProcessIdentity {
    /// This process.
    public static let current: String = identity(of: getpid()) ?? "\(getpid()):0:\(bootID)"

    /// The identity of the running process `pid`, or nil when none runs (a zombie has stopped running).
    public static func identity(of pid: Int32) -> String? {
        guard pid > 0, let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
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

    /// The kernel's id for this boot.
    static let bootID: String = ((try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)) ?? "unknown")
        .trimmingCharacters(in: .whitespacesAndNewlines)
}
