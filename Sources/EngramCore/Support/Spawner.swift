import Foundation
import Glibc

/// Starts outside programs the way a launcher should: by argv (never a shell), in their own session, with no
/// signal blocked, default signal handling and none of our descriptors.
///
/// Foundation's `Process` hands the child the calling thread's signal mask, and the daemon's work runs on
/// dispatch threads that block nearly every signal: a terminal started that way would ignore Ctrl+C and SIGTERM.
/// `posix_spawn` with an empty mask and default dispositions avoids that; a new session keeps a closing terminal
/// from taking the child down; and closing every descriptor above stderr keeps the bus socket, the index's files
/// and any pipe a reader waits on out of the child.
public enum Spawner {
    /// Where a child's standard output or error goes.
    public enum Stream: Sendable {
        /// `/dev/null`.
        case null
        /// A pipe whose read end the caller gets (and closes).
        case pipe
    }

    /// A started child: its pid and the read ends of the pipes asked for.
    public struct Child: Sendable {
        public let pid: pid_t
        /// The read end of its standard output, when `.pipe` was asked for.
        public let stdout: Int32?
        /// The read end of its standard error, when `.pipe` was asked for.
        public let stderr: Int32?
    }

    /// How a child ended.
    public enum Exit: Sendable, Equatable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal killed it.
        case signaled(Int32)

        /// The shell's number for it: the exit status, or 128 + the signal.
        public var code: Int32 {
            switch self {
            case .exited(let status): status
            case .signaled(let signal): 128 + signal
            }
        }
    }

    /// The full path of `program`: itself when it names a path, else the first executable of that name in `path`
    /// (colon-separated; `/usr/local/bin:/usr/bin:/bin` when nil).
    public static func find(_ program: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
        if program.contains("/") { return access(program, X_OK) == 0 ? program : nil }
        for dir in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(dir)/\(program)"
            var st = stat()
            if stat(candidate, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Starts `program` (a path, or a name looked up on the `PATH` of `environment`, by default ours) with
    /// `arguments` (not including argv[0]); `input`, if given, is written to its standard input from a background
    /// thread, else it reads `/dev/null`. Nothing reaps the child: `wait` or `reap` it, or use `start`.
    public static func spawn(_ program: String, _ arguments: [String], environment: [String: String]? = nil,
                             input: Data? = nil, stdout: Stream = .null, stderr: Stream = .null) throws -> Child {
        let searchPath = environment.map { $0["PATH"] } ?? ProcessInfo.processInfo.environment["PATH"]
        guard let path = program.contains("/") ? program : find(program, path: searchPath) else {
            throw SpawnError("cannot start \(program): not found on PATH")
        }

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
        var theirs: [Int32] = []  // the child's pipe ends: ours to close once it has its copies
        var ours: [Int32] = []  // the parent's pipe ends: the caller's once the child started
        var started = false
        defer {
            theirs.forEach { _ = Glibc.close($0) }
            if !started { ours.forEach { _ = Glibc.close($0) } }
        }
        func makePipe() throws -> (read: Int32, write: Int32) {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { throw SpawnError("cannot make a pipe: \(String(cString: strerror(errno)))") }
            for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            return (ends[0], ends[1])
        }
        var inputEnd: Int32?
        if input != nil {
            let p = try makePipe()
            posix_spawn_file_actions_adddup2(&actions, p.read, 0)
            theirs.append(p.read)
            ours.append(p.write)
            inputEnd = p.write
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        var outputEnds: [Int32?] = []
        for (fd, stream) in [(Int32(1), stdout), (Int32(2), stderr)] {
            switch stream {
            case .null:
                posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_WRONLY, 0)
                outputEnds.append(nil)
            case .pipe:
                let p = try makePipe()
                posix_spawn_file_actions_adddup2(&actions, p.write, fd)
                theirs.append(p.write)
                ours.append(p.read)
                outputEnds.append(p.read)
            }
        }
        closeAboveStandardError(&actions)

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
        guard rc == 0 else { throw SpawnError("cannot start \(path): \(String(cString: strerror(rc)))") }
        started = true
        if let input, let fd = inputEnd {
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
        return Child(pid: pid, stdout: outputEnds[0], stderr: outputEnds[1])
    }

    /// Starts a program as `spawn` does, with its output discarded, and reaps it on a background thread; `onExit`
    /// hears how it ended.
    @discardableResult
    public static func start(_ program: String, _ arguments: [String], environment: [String: String]? = nil, input: Data? = nil,
                             onExit: (@Sendable (Exit) -> Void)? = nil) throws -> pid_t {
        let child = try spawn(program, arguments, environment: environment, input: input)
        reap(child.pid, onExit: onExit)
        return child.pid
    }

    /// Waits for `pid` to end.
    public static func wait(_ pid: pid_t) -> Exit {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signaled(status & 0x7f)
    }

    /// Waits for `pid` on a background thread, then calls `onExit`.
    public static func reap(_ pid: pid_t, onExit: (@Sendable (Exit) -> Void)? = nil) {
        Thread.detachNewThread {
            let exit = wait(pid)
            onExit?(exit)
        }
    }

    /// Everything `fd` yields until its end, which it then closes.
    public static func readToEnd(_ fd: Int32) -> Data {
        FileHandle(fileDescriptor: fd, closeOnDealloc: true).readDataToEndOfFile()
    }

    /// glibc's `POSIX_SPAWN_SETSID` (2.26+), hidden from Swift behind `_GNU_SOURCE`: the child gets its own session.
    private static let setSessionID: Int32 = 0x80

    /// Signals whose handling goes back to the default in the child (the daemon ignores SIGPIPE, for one).
    private static let resetSignals = [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD, SIGUSR1, SIGUSR2, SIGALRM]

    /// Has the child close every descriptor above stderr: with glibc's `closefrom` action where there is one (2.34+),
    /// else one close for each descriptor open now.
    private static func closeAboveStandardError(_ actions: inout posix_spawn_file_actions_t) {
        if let addCloseFrom, addCloseFrom(&actions, 3) == 0 {
            return
        }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap({ Int32($0) }) where fd > 2 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), which Swift's Glibc module does not export.
    private static let addCloseFrom = GlibcSymbol.load(
        "posix_spawn_file_actions_addclosefrom_np",
        as: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
}

/// A failure to start a child program.
public struct SpawnError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
