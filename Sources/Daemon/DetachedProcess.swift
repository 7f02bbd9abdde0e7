import Foundation
import Glibc

/// Starts programs for the desktop (terminals, clipboard tools) the way a launcher should: in their own
/// session, with no signal blocked, default signal handling and none of the daemon's descriptors, and
/// reaps them when they exit.
///
/// Foundation's `Process` hands the child the calling thread's signal mask, and the daemon's work runs
/// on dispatch threads that block nearly every signal: a terminal started that way would ignore
/// Ctrl+C and SIGTERM. `posix_spawn` with an empty mask and default dispositions avoids that, and
/// closing every descriptor above stderr keeps the bus socket and the index's files out of the child.
enum DetachedProcess {
    /// Signals whose handling goes back to the default in the child (the daemon ignores SIGPIPE, for one).
    /// glibc's `POSIX_SPAWN_SETSID` (2.26+), hidden from Swift behind `_GNU_SOURCE`: the child gets its own session.
    private static let setSessionID: Int32 = 0x80

    private static let resetSignals = [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD, SIGUSR1, SIGUSR2, SIGALRM]

    /// Starts `path` with `arguments` (not including argv[0]) and `environment` (by default the daemon's own);
    /// `input`, if given, is written to its standard input.
    ///
    /// `onExit` runs on a background thread with the exit status (or 128 + signal) once the child is reaped.
    @discardableResult
    static func spawn(_ path: String, _ arguments: [String], environment: [String: String]? = nil, input: Data? = nil,
                      onExit: (@Sendable (Int32) -> Void)? = nil) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noneBlocked = sigset_t()
        sigemptyset(&noneBlocked)
        posix_spawnattr_setsigmask(&attributes, &noneBlocked)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in resetSignals { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | setSessionID))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var pipeEnds: [Int32] = [-1, -1]
        if input != nil {
            guard pipe(&pipeEnds) == 0 else { throw DetachedProcessError("cannot make a pipe: \(String(cString: strerror(errno)))") }
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[0], 0)
            posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
            posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        _ = addCloseFrom?(&actions, 3)

        let argv = ([path] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } }
        defer { envp?.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = (argv + [nil]).withUnsafeBufferPointer { buffer in
            guard let envp else {
                return posix_spawn(&pid, path, &actions, &attributes, UnsafeMutablePointer(mutating: buffer.baseAddress!), environ)
            }
            return (envp + [nil]).withUnsafeBufferPointer { env in
                posix_spawn(&pid, path, &actions, &attributes, UnsafeMutablePointer(mutating: buffer.baseAddress!),
                            UnsafeMutablePointer(mutating: env.baseAddress!))
            }
        }
        if input != nil { Glibc.close(pipeEnds[0]) }
        guard rc == 0 else {
            if input != nil { Glibc.close(pipeEnds[1]) }
            throw DetachedProcessError("cannot start \(path): \(String(cString: strerror(rc)))")
        }
        if let input {
            let fd = pipeEnds[1]
            Thread.detachNewThread {
                input.withUnsafeBytes { raw in
                    var offset = 0
                    while offset < raw.count {
                        let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                        if n < 0 && errno == EINTR { continue }
                        if n <= 0 { break }
                        offset += n
                    }
                }
                Glibc.close(fd)
            }
        }
        let child = pid
        Thread.detachNewThread {
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0 && errno == EINTR {}
            let code = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
            onExit?(code)
        }
        return pid
    }
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), which Swift's Glibc module does not export.
private let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
        return nil
    }
    return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
}()

/// A failure to start a child program.
struct DetachedProcessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
