import DBus
import Foundation
import Glibc

/// A private `dbus-daemon` for one test, so D-Bus tests need no bus around them.
///
/// It starts a session-type bus from a minimal config in a temporary directory, reads the
/// address the daemon prints, and kills the daemon in `stop()` (or when it is released).
/// Children started through `run` or `spawn` get the bus as `DBUS_SESSION_BUS_ADDRESS`.
/// Given `services`, the bus has a service folder, so D-Bus activation is real, and its standard
/// error (which activated services inherit) goes to `bus.log`, so tests can read a service's log.
public final class PrivateBus: @unchecked Sendable {
    /// The daemon's address, e.g. `unix:path=/tmp/engram-bus-…/dbus-…,guid=…`.
    public let address: String
    /// The dbus-daemon's process id (kill it to simulate the bus going away; `timeout` does not pass SIGKILL on).
    public let pid: Int32
    /// The folder holding the config, the service files and the log.
    public let directory: URL
    /// Where the bus and the services it starts write their standard error.
    public var logPath: String { directory.appendingPathComponent("bus.log").path }

    private let daemon: ChildProcess
    private let lock = NSLock()
    private var children: [ChildProcess] = []

    /// Starts the daemon, with `services` (file name → contents) as its activatable services, and waits
    /// (up to 10 s) for it to print its address.
    public init(services: [String: String]? = nil) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("engram-bus-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var serviceDir: String?
        if let services {
            let folder = directory.appendingPathComponent("services", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (name, contents) in services {
                try contents.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
            }
            serviceDir = folder.path
        }
        let config = directory.appendingPathComponent("session.conf")
        try Self.config(socketDirectory: directory.path, serviceDirectory: serviceDir)
            .write(to: config, atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: directory.appendingPathComponent("bus.log").path, contents: nil)

        // `timeout` is a safety net: if the test process dies without calling stop(), the
        // daemon still goes away after a quarter of an hour instead of lingering forever.
        let output = try ChildPipe()
        defer { close(output.read) }
        let log = open(directory.appendingPathComponent("bus.log").path, O_WRONLY | O_APPEND | O_CLOEXEC)
        defer { close(log) }
        do {
            defer { close(output.write) }
            daemon = try ChildProcess.spawn("/usr/bin/timeout", [
                "--signal=KILL", "900", "/usr/bin/dbus-daemon", "--config-file=\(config.path)",
                "--nofork", "--print-address=1", "--print-pid=1",
            ], environment: Self.withoutBus(ProcessInfo.processInfo.environment), stdout: output.write,
               stderr: services == nil ? nil : log)
        }

        // The daemon prints its address, then its pid, one per line, and keeps stdout open.
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(10)
        while text.split(separator: "\n").count < 2, Date() < deadline {
            var fd = pollfd(fd: output.read, events: Int16(POLLIN), revents: 0)
            guard poll(&fd, 1, 1000) > 0 else { continue }
            let count = read(output.read, &buffer, buffer.count)
            if count <= 0 { break }
            text += String(decoding: buffer[0..<count], as: UTF8.self)
        }
        let lines = text.split(separator: "\n")
        guard lines.count >= 2, lines[0].hasPrefix("unix:"), let daemonPid = Int32(lines[1]) else {
            daemon.kill()
            throw TestError("dbus-daemon did not print its address and pid (got \(text.debugDescription))")
        }
        address = String(lines[0])
        pid = daemonPid
    }

    /// What the bus's children wrote so far (an activated service's log lines among them).
    public var log: String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    /// `environment` without any bus of the caller's.
    private static func withoutBus(_ environment: [String: String]) -> [String: String] {
        var env = environment
        for key in ["DBUS_SESSION_BUS_ADDRESS", "DBUS_STARTER_ADDRESS", "DBUS_STARTER_BUS_TYPE", "INVOCATION_ID"] {
            env.removeValue(forKey: key)
        }
        return env
    }

    deinit {
        stop()
    }

    /// A minimal session bus (anyone may own any name and send anything): the one config every test world uses,
    /// `session-bus.conf` beside this file (the Python suites read it too).
    private static func config(socketDirectory: String, serviceDirectory: String?) throws -> String {
        let template = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("session-bus.conf")
        return try String(contentsOf: template, encoding: .utf8)
            .replacingOccurrences(of: "@SOCKET_DIR@", with: socketDirectory)
            .replacingOccurrences(of: "@SERVICE_DIRS@", with: serviceDirectory.map { "<servicedir>\($0)</servicedir>" } ?? "")
    }

    /// The current environment with this bus as the session bus.
    public var environment: [String: String] {
        var env = Self.withoutBus(ProcessInfo.processInfo.environment)
        env["DBUS_SESSION_BUS_ADDRESS"] = address
        return env
    }

    /// Opens a new connection to this bus.
    public func connect() throws -> DBusConnection {
        try DBusConnection(address: address)
    }

    /// What a finished child printed and how it exited.
    public typealias Output = ProgramOutput

    /// Starts a bus without holding up Swift's cooperative threads while the daemon starts.
    public static func start() async throws -> PrivateBus {
        try await onThread { try PrivateBus() }
    }

    /// Runs a program against this bus and waits for it, killing it after `timeout`.
    ///
    /// The waiting happens on dedicated threads, never on Swift's cooperative pool.
    public func run(_ executable: String, _ arguments: [String], timeout: TimeInterval = 20) async throws -> Output {
        try await onThread { try self.runBlocking(executable, arguments, timeout: timeout) }
    }

    private func runBlocking(_ executable: String, _ arguments: [String], timeout: TimeInterval) throws -> Output {
        try runProgram(executable, arguments, environment: environment, timeout: timeout)
    }

    /// Starts a long-running program against this bus; it is killed in `stop()` if still running.
    @discardableResult
    public func spawn(_ executable: String, _ arguments: [String]) throws -> ChildProcess {
        let child = try ChildProcess.spawn(executable, arguments, environment: environment)
        lock.withLock { children.append(child) }
        return child
    }

    /// Kills the children and the daemon and removes the temporary directory.
    public func stop() {
        let toKill = lock.withLock { () -> [ChildProcess] in
            defer { children = [] }
            return children
        }
        // SIGKILL: python-dbusmock sits in a GLib main loop and may never run a SIGTERM handler.
        for child in toKill { child.kill() }
        kill(pid, SIGKILL)
        daemon.kill()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Runs blocking work on a dedicated thread and awaits its result, keeping Swift's
/// cooperative threads free (a blocked pool starves every other async test).
public func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}
