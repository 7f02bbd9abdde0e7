import DBus
import Foundation

/// A private `dbus-daemon` for one test, so D-Bus tests need no bus around them.
///
/// It starts a session-type bus from a minimal config in a temporary directory, reads the
/// address the daemon prints, and kills the daemon in `stop()` (or when it is released).
/// Children started through `run` or `spawn` get the bus as `DBUS_SESSION_BUS_ADDRESS`.
/// Copy this file into other test targets that need a bus.
final class PrivateBus: @unchecked Sendable {
    /// The daemon's address, e.g. `unix:abstract=/tmp/dbus-…,guid=…`.
    let address: String
    /// The daemon's process id.
    let pid: Int32

    private let daemon: Process
    private let directory: URL
    private let lock = NSLock()
    private var children: [Process] = []

    /// Starts the daemon and waits (up to 10 s) for it to print its address.
    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("engram-bus-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("session.conf")
        try Self.config(socketDirectory: directory.path).write(to: config, atomically: true, encoding: .utf8)

        daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--config-file=\(config.path)", "--nofork", "--print-address=1"]
        let output = Pipe()
        daemon.standardOutput = output
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        pid = daemon.processIdentifier

        var text = ""
        let deadline = Date().addingTimeInterval(10)
        while !text.contains("\n"), Date() < deadline {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let line = text.split(separator: "\n").first, line.hasPrefix("unix:") else {
            daemon.terminate()
            throw PrivateBusError("dbus-daemon did not print an address (got \(text.debugDescription))")
        }
        address = String(line)
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

    /// Runs a program against this bus and waits for it, killing it after `timeout`.
    func run(_ executable: String, _ arguments: [String], timeout: TimeInterval = 20) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        // Read both pipes while the child runs so a large output cannot block it.
        let collected = Collected()
        let readers = DispatchGroup()
        for (pipe, isOut) in [(out, true), (err, false)] {
            readers.enter()
            DispatchQueue.global().async {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                collected.set(String(decoding: data, as: UTF8.self), stdout: isOut)
                readers.leave()
            }
        }
        try process.run()
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            _ = exited.wait(timeout: .now() + 5)
            readers.wait()
            throw PrivateBusError("\(executable) \(arguments.joined(separator: " ")) did not finish within \(timeout) s; stderr: \(collected.stderr)")
        }
        readers.wait()
        return Output(status: process.terminationStatus, stdout: collected.stdout, stderr: collected.stderr)
    }

    /// Starts a long-running program against this bus; it is killed in `stop()` if still running.
    @discardableResult
    func spawn(_ executable: String, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        lock.withLock { children.append(process) }
        return process
    }

    /// Kills the children and the daemon and removes the temporary directory.
    func stop() {
        let toKill = lock.withLock { () -> [Process] in
            defer { children = [] }
            return children
        }
        for child in toKill where child.isRunning {
            child.terminate()
            child.waitUntilExit()
        }
        if daemon.isRunning {
            kill(daemon.processIdentifier, SIGKILL)
            daemon.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A failure to set up or use the private bus.
struct PrivateBusError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Output gathered from a child's pipes on background threads.
private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var out = ""
    private var err = ""
    func set(_ text: String, stdout: Bool) { lock.withLock { if stdout { out = text } else { err = text } } }
    var stdout: String { lock.withLock { out } }
    var stderr: String { lock.withLock { err } }
}
