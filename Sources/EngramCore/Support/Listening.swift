import Foundation

/// Push-to-talk's one piece of shared state: the pid file an `engram listen` keeps while it records
/// (`RUNTIME/listening.pid`, 0600). A second press finds it and stops that recording; the daemon reads it for the
/// `Listening` property that the window, the top-bar extension and the Plasma widget show.
public enum Listening {
    public static func pidFile(_ paths: EngramPaths) -> String { paths.runtimeDirectory + "/listening.pid" }

    /// The pid of the `engram listen` that is recording now, if one is (a stale file is ignored).
    public static func listener(_ paths: EngramPaths) -> pid_t? {
        guard let text = try? String(contentsOfFile: pidFile(paths), encoding: .utf8),
              let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0, pid != getpid(), kill(pid, 0) == 0,
              let cmdline = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
              String(decoding: cmdline, as: UTF8.self).split(separator: "\0").contains("listen") else { return nil }
        return pid
    }

    /// Marks this process as the one listening; the returned closure unmarks it.
    public static func mark(_ paths: EngramPaths) throws -> @Sendable () -> Void {
        try FileManager.default.createDirectory(atPath: paths.runtimeDirectory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let file = pidFile(paths)
        guard FileManager.default.createFile(atPath: file, contents: Data("\(getpid())\n".utf8), attributes: [.posixPermissions: 0o600]) else {
            throw EngramError.io("cannot write \(file)")
        }
        return { try? FileManager.default.removeItem(atPath: file) }
    }

    /// Stops the recording under way (the second press): it then recognises what it heard and acts. False when
    /// nothing was listening.
    @discardableResult
    public static func stop(_ paths: EngramPaths) -> Bool {
        guard let pid = listener(paths) else { return false }
        return kill(pid, SIGUSR1) == 0
    }
}
