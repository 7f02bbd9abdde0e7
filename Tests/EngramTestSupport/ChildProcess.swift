import Foundation
import Glibc

/// A child process started with `posix_spawn` and reaped with `waitpid`, shared by every test target.
///
/// Foundation's `Process` on Linux notices a child's exit through a socket the child inherits;
/// when tests spawn many processes at once from several threads, that socket can leak into
/// other children and `waitUntilExit()` then never returns. Here every child closes all
/// descriptors above stderr (`closefrom`), so nothing leaks, and exit is seen by `waitpid`.
public final class ChildProcess: @unchecked Sendable {
    /// The child's process id.
    public let pid: pid_t
    private let lock = NSLock()
    private var exitStatus: Int32?

    private init(pid: pid_t) {
        self.pid = pid
    }

    /// Whether children close inherited descriptors (glibc 2.34 or later).
    public static var closesInheritedDescriptors: Bool { addCloseFrom != nil }

    /// Starts `path` with `arguments` and `environment`; stdin is /dev/null, and stdout and
    /// stderr go to the given descriptors (or /dev/null).
    public static func spawn(_ path: String, _ arguments: [String], environment: [String: String],
                      stdout: Int32? = nil, stderr: Int32? = nil) throws -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let stdout { posix_spawn_file_actions_adddup2(&actions, stdout, 1) } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        if let stderr { posix_spawn_file_actions_adddup2(&actions, stderr, 2) } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        _ = addCloseFrom?(&actions, 3)

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        // The spawning thread may block signals (Dispatch's threads block most): a child must not inherit
        // that mask, or SIGTERM never reaches a dbus-daemon or engram daemon started for a test.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard rc == 0 else { throw TestError("could not start \(path): \(String(cString: strerror(rc)))") }
        return ChildProcess(pid: pid)
    }

    /// Sends a signal to the child, unless it has already been reaped.
    public func signal(_ signal: Int32) {
        lock.withLock {
            if exitStatus == nil { _ = Glibc.kill(pid, signal) }
        }
    }

    /// Whether the child is still running (reaping it if it has exited).
    public var isRunning: Bool {
        lock.withLock {
            if exitStatus != nil { return false }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { exitStatus = status }
            return exitStatus == nil
        }
    }

    /// Blocks until the child exits and returns its raw wait status.
    @discardableResult
    public func wait() -> Int32 {
        while true {
            if let status = lock.withLock({ exitStatus }) { return status }
            var status: Int32 = 0
            let result = waitpid(pid, &status, 0)
            if result == pid {
                lock.withLock { exitStatus = status }
            } else if result < 0, errno != EINTR {
                // Reaped elsewhere (isRunning on another thread): its status is recorded there.
                if let status = lock.withLock({ exitStatus }) { return status }
                return -1
            }
        }
    }

    /// The exit code if the child exited normally, or 128 + the signal that killed it.
    public var exitCode: Int32 {
        let status = wait()
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// Kills the child with SIGKILL and reaps it.
    public func kill() {
        signal(SIGKILL)
        wait()
    }
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), which Swift's Glibc module does not export.
private let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
        return nil
    }
    return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
}()

/// A pipe whose ends are close-on-exec, so only the child it is handed to inherits it.
public struct ChildPipe: Sendable {
    public let read: Int32
    public let write: Int32

    public init() throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw TestError("pipe failed: errno \(errno)") }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        read = ends[0]
        write = ends[1]
    }
}

/// Reads everything from several descriptors until each reaches end of file or `deadline` passes.
///
/// Returns the text read from each, in order, and whether the deadline passed first.
public func readAll(_ fds: [Int32], until deadline: Date) -> (texts: [String], timedOut: Bool) {
    var data = Array(repeating: [UInt8](), count: fds.count)
    var open = Set(fds.indices)
    var buffer = [UInt8](repeating: 0, count: 65536)
    while !open.isEmpty {
        let remaining = deadline.timeIntervalSinceNow
        if remaining <= 0 { return (data.map { String(decoding: $0, as: UTF8.self) }, true) }
        var polls = open.sorted().map { pollfd(fd: fds[$0], events: Int16(POLLIN), revents: 0) }
        let ready = poll(&polls, nfds_t(polls.count), Int32(min(remaining * 1000, 1000)))
        if ready <= 0 { continue }
        for (slot, index) in open.sorted().enumerated() where polls[slot].revents != 0 {
            let count = Glibc.read(fds[index], &buffer, buffer.count)
            if count > 0 { data[index] += buffer[0..<count] } else if count == 0 || errno != EINTR { open.remove(index) }
        }
    }
    return (data.map { String(decoding: $0, as: UTF8.self) }, false)
}

/// A failure in a test's setup, with a message.
public struct TestError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// What a finished program printed and how it ended.
public struct ProgramOutput: Sendable {
    /// The exit code, or 128 + the signal that killed it.
    public var status: Int32
    /// Everything written to stdout.
    public var stdout: String
    /// Everything written to stderr.
    public var stderr: String
    /// Standard output without the trailing newline.
    public var text: String { stdout.trimmingCharacters(in: .whitespacesAndNewlines) }

    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }
}

/// Runs `executable` with `arguments` and `environment` to the end, collecting its output; kills it after `timeout`.
public func runProgram(_ executable: String, _ arguments: [String], environment: [String: String],
                       timeout: TimeInterval) throws -> ProgramOutput {
    let out = try ChildPipe(), err = try ChildPipe()
    let child: ChildProcess
    do {
        defer { close(out.write); close(err.write) }
        child = try ChildProcess.spawn(executable, arguments, environment: environment, stdout: out.write, stderr: err.write)
    }
    defer { close(out.read); close(err.read) }
    let (texts, timedOut) = readAll([out.read, err.read], until: Date().addingTimeInterval(timeout))
    if timedOut {
        child.kill()
        throw TestError("\(executable) \(arguments.joined(separator: " ").prefix(300)) did not finish within \(timeout) s; stderr: \(texts[1])")
    }
    return ProgramOutput(status: child.exitCode, stdout: texts[0], stderr: texts[1])
}
