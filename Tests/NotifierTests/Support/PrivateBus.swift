import DBus
import Foundation
import Glibc

/// A private `dbus-daemon` for one test, so D-Bus tests need no bus around them.
///
/// It starts a session-type bus from a minimal config in a temporary directory, reads the
/// address the daemon prints, and kills the daemon in `stop()` (or when it is released).
/// Children started through `run` or `spawn` get the bus as `DBUS_SESSION_BUS_ADDRESS`.
/// Copy this file into other test targets that need a bus.
final class PrivateBus: @unchecked Sendable {
    /// The daemon's address, e.g. `unix:abstract=/tmp/dbus-…,guid=…`.
    let address: String
    /// The dbus-daemon's process id (kill it to simulate the bus going away).
    let pid: Int32

    private let daemon: ChildProcess
    private let directory: URL
    private let lock = NSLock()
    private var children: [ChildProcess] = []

    /// Starts the daemon and waits (up to 10 s) for it to print its address.
    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("engram-bus-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("session.conf")
        try Self.config(socketDirectory: directory.path).write(to: config, atomically: true, encoding: .utf8)

        // `timeout` is a safety net: if the test process dies without calling stop(), the
        // daemon still goes away after a quarter of an hour instead of lingering forever.
        let output = try ChildPipe()
        defer { close(output.read) }
        do {
            defer { close(output.write) }
            daemon = try ChildProcess.spawn("/usr/bin/timeout", [
                "--signal=KILL", "900", "/usr/bin/dbus-daemon", "--config-file=\(config.path)",
                "--nofork", "--print-address=1", "--print-pid=1",
            ], environment: ProcessInfo.processInfo.environment, stdout: output.write)
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
            throw PrivateBusError("dbus-daemon did not print its address and pid (got \(text.debugDescription))")
        }
        address = String(lines[0])
        pid = daemonPid
    }

    deinit {
        stop()
    }

    /// A minimal session bus: anyone may own any name and send anything.
    private static func config(socketDirectory: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:dir=\(socketDirectory)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
          <limit name="max_message_size">1000000000</limit>
          <limit name="max_incoming_bytes">1000000000</limit>
          <limit name="max_outgoing_bytes">1000000000</limit>
          <limit name="reply_timeout">300000</limit>
        </busconfig>
        """
    }

    /// The current environment with this bus as the session bus.
    var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SESSION_BUS_ADDRESS"] = address
        env.removeValue(forKey: "DBUS_STARTER_ADDRESS")
        return env
    }

    /// Opens a new connection to this bus.
    func connect() throws -> DBusConnection {
        try DBusConnection(address: address)
    }

    /// What a finished child printed and how it exited.
    struct Output: Sendable {
        /// The exit status.
        let status: Int32
        /// Everything written to stdout.
        let stdout: String
        /// Everything written to stderr.
        let stderr: String
    }

    /// Starts a bus without holding up Swift's cooperative threads while the daemon starts.
    static func start() async throws -> PrivateBus {
        try await onThread { try PrivateBus() }
    }

    /// Runs a program against this bus and waits for it, killing it after `timeout`.
    ///
    /// The waiting happens on dedicated threads, never on Swift's cooperative pool.
    func run(_ executable: String, _ arguments: [String], timeout: TimeInterval = 20) async throws -> Output {
        try await onThread { try self.runBlocking(executable, arguments, timeout: timeout) }
    }

    private func runBlocking(_ executable: String, _ arguments: [String], timeout: TimeInterval) throws -> Output {
        let out = try ChildPipe(), err = try ChildPipe()
        let child: ChildProcess
        do {
            defer { close(out.write); close(err.write) }
            child = try ChildProcess.spawn(executable, arguments, environment: environment,
                                           stdout: out.write, stderr: err.write)
        }
        defer { close(out.read); close(err.read) }
        let (texts, timedOut) = readAll([out.read, err.read], until: Date().addingTimeInterval(timeout))
        if timedOut {
            child.kill()
            throw PrivateBusError("\(executable) \(arguments.joined(separator: " ")) did not finish within \(timeout) s; stderr: \(texts[1])")
        }
        return Output(status: child.exitCode, stdout: texts[0], stderr: texts[1])
    }

    /// Starts a long-running program against this bus; it is killed in `stop()` if still running.
    @discardableResult
    func spawn(_ executable: String, _ arguments: [String]) throws -> ChildProcess {
        let child = try ChildProcess.spawn(executable, arguments, environment: environment)
        lock.withLock { children.append(child) }
        return child
    }

    /// Kills the children and the daemon and removes the temporary directory.
    func stop() {
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
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}

/// A failure to set up or use the private bus.
struct PrivateBusError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
