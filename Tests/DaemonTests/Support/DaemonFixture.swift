import DBus
import EngramTestSupport
import Foundation

/// One test's world: a data folder (with the sample collection), a config, and a private bus whose
/// service folder holds our `org.engram.Engram.service`, rendered from Desktop/ with `Exec` running the
/// built `engram daemon` on that data folder, so the first call starts the daemon by D-Bus activation.
///
/// The config points `[desktop] terminal` at a small recorder, so "opening a terminal" writes the argv
/// it was given to `launches/` instead of opening a window.
final class DaemonFixture: @unchecked Sendable {
    static let busName = "org.engram.Engram"
    static let appPath = "/org/engram/Engram"
    static let providerPath = "/org/engram/Engram/SearchProvider"
    static let runnerPath = "/runner"
    static let provider = "org.gnome.Shell.SearchProvider2"
    static let runner = "org.kde.krunner1"
    static let app = "org.engram.Engram1"

    let base: String
    let dataDir: String
    let configDir: String
    let launchesDir: String
    let bus: ActivationBus
    let client: DBusConnection

    /// The repository root.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// The built `engram` beside the test bundle (or `$ENGRAM_BIN`).
    static let engramBinary: String = {
        if let b = ProcessInfo.processInfo.environment["ENGRAM_BIN"] { return b }
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for dir in [here, here.deletingLastPathComponent()] {
            let candidate = dir.appendingPathComponent("engram").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return root + "/.build/debug/engram"
    }()

    /// Sets up the data folder (importing the samples unless `samples` is false) and starts the bus.
    init(samples: Bool = true, config extra: String = "", environment daemonEnvironment: [String: String] = [:]) throws {
        base = NSTemporaryDirectory() + "engram-daemon-test-" + UUID().uuidString
        dataDir = base + "/data"
        configDir = base + "/config"
        launchesDir = base + "/launches"
        for dir in [configDir, launchesDir] {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        }
        let recorder = base + "/record-terminal.py"
        try """
            import json, os, sys, time
            status = dict(line.split(":\\t", 1) for line in open("/proc/self/status").read().splitlines() if ":\\t" in line)
            record = {"argv": sys.argv[1:], "blocked": status["SigBlk"].strip(), "ignored": status["SigIgn"].strip(),
                      "session_leader": os.getsid(0) == os.getpid(),
                      "startup_id": os.environ.get("DESKTOP_STARTUP_ID"), "activation_token": os.environ.get("XDG_ACTIVATION_TOKEN")}
            path = os.path.join(\(Self.pythonString(launchesDir)), "%d-%d.json" % (time.time_ns(), os.getpid()))
            with open(path, "w") as f:
                json.dump(record, f)
            """.write(toFile: recorder, atomically: true, encoding: .utf8)
        let config = "[desktop]\nopen = \"terminal\"\nterminal = [\"/usr/bin/python3\", \(Self.tomlString(recorder))]\n" + extra
        try config.write(toFile: configDir + "/config.toml", atomically: true, encoding: .utf8)

        let template = try String(contentsOfFile: Self.root + "/Desktop/dbus-1/services/org.engram.Engram.service.in", encoding: .utf8)
        let extraEnv = daemonEnvironment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value) " }.joined()
        let exec = "Exec=/usr/bin/env ENGRAM_DATA_DIR=\(dataDir) ENGRAM_CONFIG_DIR=\(configDir) \(extraEnv)\(Self.engramBinary) daemon"
        let service = template.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("Exec=") ? exec : String($0) }.joined(separator: "\n")
        bus = try ActivationBus(services: ["org.engram.Engram.service": service])
        client = try bus.connect()

        if samples {
            // The sample collection dated from today on the Engram clock (scripts/samples.py).
            let s = dataDir + "-samples"
            let copied = try Run.program("/usr/bin/python3", [Self.root + "/scripts/samples.py", s], environment: environment)
            guard copied.status == 0 else { throw TestError("scripts/samples.py failed: \(copied.stderr)") }
            let out = try engram(["import", s + "/memories.jsonl", s + "/curricula/swift-concurrency.toml", s + "/curricula/spanish-b1.yaml"])
            guard out.status == 0 else { throw TestError("import failed: \(out.stderr)") }
        }
    }

    deinit {
        stop()
    }

    /// The environment programs run with: this bus, this data and config folder, UTC.
    var environment: [String: String] {
        var env = bus.environment
        env["ENGRAM_DATA_DIR"] = dataDir
        env["ENGRAM_CONFIG_DIR"] = configDir
        env["TZ"] = "UTC"
        return env
    }

    /// Runs `engram args…` on this data folder and bus.
    @discardableResult
    func engram(_ arguments: [String], environment extra: [String: String] = [:], timeout: TimeInterval = 120) throws -> Output {
        try Run.program(Self.engramBinary, arguments, environment: environment.merging(extra) { _, b in b }, timeout: timeout)
    }

    /// Runs `gdbus call` on the daemon exactly as a desktop would, with GVariant-text arguments.
    func gdbus(_ path: String, _ interface: String, _ method: String, _ arguments: [String] = [],
               timeout: TimeInterval = 60) throws -> Output {
        try Run.program("/usr/bin/gdbus", ["call", "--session", "--dest", Self.busName, "--object-path", path,
                                           "--method", "\(interface).\(method)", "--"] + arguments,
                        environment: environment, timeout: timeout)
    }

    /// `gdbus call`, checked to succeed, with its reply parsed by GLib into JSON-like values.
    func gdbusValue(_ path: String, _ interface: String, _ method: String, _ arguments: [String] = []) throws -> [Any] {
        let out = try gdbus(path, interface, method, arguments)
        guard out.status == 0 else { throw TestError("gdbus \(method) failed (\(out.status)): \(out.stderr)") }
        return try Run.gvariant(out.text) as? [Any] ?? []
    }

    /// GNOME Shell's GetInitialResultSet through gdbus.
    func initialResultSet(_ terms: [String]) throws -> [String] {
        try gdbusValue(Self.providerPath, Self.provider, "GetInitialResultSet", [Self.gvariantStrings(terms)]).first as? [String] ?? []
    }

    /// Calls the daemon from this test's own connection.
    func call(_ path: String, _ interface: String, _ method: String, _ arguments: [DBusValue] = [],
              timeout: Duration = .seconds(30)) throws -> [DBusValue] {
        try client.call(destination: Self.busName, path: try DBusObjectPath(validating: path), interface: interface, method: method,
                        arguments: arguments, timeout: timeout)
    }

    /// Calls another peer on this bus (a mock, the bus itself) from this test's connection.
    func callPeer(_ destination: String, _ path: String, _ interface: String, _ method: String,
                  _ arguments: [DBusValue] = []) throws -> [DBusValue] {
        try client.call(destination: destination, path: try DBusObjectPath(validating: path), interface: interface, method: method,
                        arguments: arguments, timeout: .seconds(10))
    }

    /// The pid of the process owning org.engram.Engram, or nil when nobody does.
    func daemonPID() throws -> Int32? {
        guard let owner = try client.nameOwner(Self.busName) else { return nil }
        do {
            let reply = try client.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                        interface: "org.freedesktop.DBus", method: "GetConnectionUnixProcessID",
                                        arguments: [.string(owner)])
            return reply.first?.uint32Value.map { Int32($0) }
        } catch let e as DBusError where e.name == "org.freedesktop.DBus.Error.NameHasNoOwner" {
            return nil  // the owner left between the two questions: no daemon runs
        }
    }

    /// One recorded terminal launch: its argv, the signal state and the startup variables it started with.
    struct Launch {
        var argv: [String]
        /// Blocked and ignored signals, as masks (bit n-1 for signal n).
        var blocked: UInt64
        var ignored: UInt64
        var sessionLeader: Bool
        /// `DESKTOP_STARTUP_ID` and `XDG_ACTIVATION_TOKEN`, nil when unset.
        var startupID: String?
        var activationToken: String?
    }

    /// The terminal launches recorded so far, oldest first.
    func launchRecords() -> [Launch] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: launchesDir)) ?? []).sorted()
        return names.compactMap { name in
            guard let data = FileManager.default.contents(atPath: launchesDir + "/" + name),
                  let record = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let argv = record["argv"] as? [String] else { return nil }
            return Launch(argv: argv, blocked: UInt64(record["blocked"] as? String ?? "", radix: 16) ?? .max,
                          ignored: UInt64(record["ignored"] as? String ?? "", radix: 16) ?? .max,
                          sessionLeader: record["session_leader"] as? Bool ?? false,
                          startupID: record["startup_id"] as? String, activationToken: record["activation_token"] as? String)
        }
    }

    /// The argv each recorded terminal launch received, oldest first.
    func launches() -> [[String]] { launchRecords().map(\.argv) }

    /// A memory as `engram show --peek --json` prints it.
    func memory(_ id: String) throws -> [String: Any] {
        let out = try engram(["show", "--peek", "--json", id])
        guard out.status == 0 else { throw TestError("show \(id) failed: \(out.stderr)") }
        return try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any] ?? [:]
    }

    /// Stops the daemon with SIGTERM (waiting for it), then the bus, and removes the folders.
    func stop() {
        if let pid = try? daemonPID() {
            kill(pid, SIGTERM)
            _ = Self.waitForExit(pid, timeout: 10)
        }
        client.close()
        bus.stop()
        try? FileManager.default.removeItem(atPath: base)
    }

    /// Waits until process `pid` is gone; false on timeout.
    static func waitForExit(_ pid: Int32, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if kill(pid, 0) != 0 && errno == ESRCH { return true }
            if isZombie(pid) { return true }
            usleep(10_000)
        }
        return false
    }

    /// Whether `pid` has exited but not been reaped yet.
    static func isZombie(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z")
    }

    /// A GVariant text `as` literal: ['a', 'b'] with quotes and backslashes escaped.
    static func gvariantStrings(_ strings: [String]) -> String {
        strings.isEmpty ? "@as []" : "[" + strings.map(gvariantString).joined(separator: ", ") + "]"
    }

    /// A GVariant text string literal.
    static func gvariantString(_ s: String) -> String {
        "'" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }

    static func tomlString(_ s: String) -> String {
        "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    static func pythonString(_ s: String) -> String {
        "'" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}

/// Runs `body` with a fresh fixture and always tears it down.
func withDaemon<T>(samples: Bool = true, config: String = "", environment: [String: String] = [:],
                   _ body: (DaemonFixture) async throws -> T) async throws -> T {
    let fixture = try DaemonFixture(samples: samples, config: config, environment: environment)
    defer { fixture.stop() }
    return try await body(fixture)
}

/// Waits up to `timeout` for `condition`, polling every 10 ms.
func eventually(timeout: Duration = .seconds(10), _ condition: () throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return try condition()
}

/// Collects values delivered on another thread.
final class Collector<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [T] = []
    func append(_ item: T) { lock.withLock { items.append(item) } }
    var all: [T] { lock.withLock { items } }
}
