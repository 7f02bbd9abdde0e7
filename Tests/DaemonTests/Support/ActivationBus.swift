import DBus
import Foundation
import Glibc

/// A private `dbus-daemon` for one test, with a service folder so D-Bus activation is real.
///
/// Adapted from Tests/DBusTests/Support/PrivateBus.swift: the config adds a `<servicedir>`, and the bus's
/// standard error (which activated services inherit) goes to `bus.log` so tests can read the daemon's log.
final class ActivationBus: @unchecked Sendable {
    /// The daemon's address.
    let address: String
    /// The folder holding the config, the service files and the log.
    let directory: URL
    /// Where activated services write their standard error.
    var logPath: String { directory.appendingPathComponent("bus.log").path }

    private let daemon: ChildProcess

    /// Writes the config and `services` (file name → contents) and starts the bus.
    init(services: [String: String]) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("engram-daemon-bus-\(UUID().uuidString)", isDirectory: true)
        let serviceDir = directory.appendingPathComponent("services", isDirectory: true)
        try FileManager.default.createDirectory(at: serviceDir, withIntermediateDirectories: true)
        for (name, contents) in services {
            try contents.write(to: serviceDir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let config = directory.appendingPathComponent("session.conf")
        try Self.config(socketDirectory: directory.path, serviceDirectory: serviceDir.path)
            .write(to: config, atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: directory.appendingPathComponent("bus.log").path, contents: nil)

        // `timeout` is a safety net: if the test process dies without stop(), the bus goes away in 15 minutes.
        var env = ProcessInfo.processInfo.environment
        for key in ["DBUS_SESSION_BUS_ADDRESS", "DBUS_STARTER_ADDRESS", "DBUS_STARTER_BUS_TYPE", "INVOCATION_ID"] {
            env.removeValue(forKey: key)
        }
        let output = try ChildPipe()
        defer { close(output.read) }
        let log = open(directory.appendingPathComponent("bus.log").path, O_WRONLY | O_APPEND | O_CLOEXEC)
        defer { close(log) }
        do {
            defer { close(output.write) }
            daemon = try ChildProcess.spawn("/usr/bin/timeout", [
                "--signal=KILL", "900", "/usr/bin/dbus-daemon", "--config-file=\(config.path)", "--nofork", "--print-address=1",
            ], environment: env, stdout: output.write, stderr: log)
        }
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(10)
        while !text.contains("\n"), Date() < deadline {
            var fd = pollfd(fd: output.read, events: Int16(POLLIN), revents: 0)
            guard poll(&fd, 1, 1000) > 0 else { continue }
            let count = read(output.read, &buffer, buffer.count)
            if count <= 0 { break }
            text += String(decoding: buffer[0..<count], as: UTF8.self)
        }
        guard let line = text.split(separator: "\n").first, line.hasPrefix("unix:") else {
            daemon.kill()
            throw TestError("dbus-daemon did not print an address (got \(text.debugDescription))")
        }
        address = String(line)
    }

    deinit {
        stop()
    }

    /// A session bus whose activatable services come from `serviceDirectory`.
    private static func config(socketDirectory: String, serviceDirectory: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:dir=\(socketDirectory)</listen>
          <auth>EXTERNAL</auth>
          <servicedir>\(serviceDirectory)</servicedir>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
          <limit name="max_message_size">268435456</limit>
          <limit name="max_incoming_bytes">1000000000</limit>
          <limit name="max_outgoing_bytes">1000000000</limit>
          <limit name="service_start_timeout">30000</limit>
          <limit name="reply_timeout">300000</limit>
        </busconfig>
        """
    }

    /// The environment with this bus as the session bus.
    var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SESSION_BUS_ADDRESS"] = address
        for key in ["DBUS_STARTER_ADDRESS", "DBUS_STARTER_BUS_TYPE", "INVOCATION_ID"] { env.removeValue(forKey: key) }
        return env
    }

    /// What the bus's children wrote so far (the daemon's log lines among them).
    var log: String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    /// Opens a new connection to this bus.
    func connect() throws -> DBusConnection {
        try DBusConnection(address: address)
    }

    /// Kills the bus and removes its folder.
    func stop() {
        daemon.kill()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A failure in a test's setup, with a message.
struct TestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
