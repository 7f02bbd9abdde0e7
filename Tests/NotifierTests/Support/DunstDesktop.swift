import EngramTestSupport
import Foundation
import Glibc

/// A real notification server on a virtual screen: Xvfb plus dunst on a private bus, read back with
/// `dunstctl` and photographed with ImageMagick's `import`.
final class DunstDesktop: @unchecked Sendable {
    static let tools = ["/usr/bin/Xvfb", "/usr/bin/dunst", "/usr/bin/dunstctl", "/usr/bin/busctl", "/usr/bin/import", "/usr/bin/identify"]

    /// Whether the programs are here (`make test` installs them with scripts/install-deps.sh; a test installs nothing).
    static var available: Bool { tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) } }

    /// What is missing, as a sentence for a failed test.
    static var missing: String {
        "missing \(tools.filter { !FileManager.default.isExecutableFile(atPath: $0) }.joined(separator: ", ")): "
            + "make test installs dunst, xvfb, imagemagick and systemd first (scripts/install-deps.sh)"
    }

    let bus: PrivateBus
    let display: String
    let directory: String
    private let xvfb: ChildProcess
    private let dunst: ChildProcess

    init(bus: PrivateBus, directory: String) throws {
        self.bus = bus
        self.directory = directory
        let out = try ChildPipe()
        do {
            defer { close(out.write) }
            xvfb = try ChildProcess.spawn("/usr/bin/Xvfb", ["-displayfd", "1", "-screen", "0", "800x300x24", "-nolisten", "tcp"],
                                          environment: ProcessInfo.processInfo.environment, stdout: out.write)
        }
        defer { close(out.read) }
        // Xvfb writes the display number it picked once it is ready (EOF if it died).
        var text = ""
        var byte: UInt8 = 0
        while !text.hasSuffix("\n"), read(out.read, &byte, 1) == 1 { text.unicodeScalars.append(Unicode.Scalar(byte)) }
        guard let number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            xvfb.kill()
            throw TestError("Xvfb did not report a display (got \(text.debugDescription))")
        }
        display = ":\(number)"

        let config = directory + "/dunstrc"
        try Self.config.write(toFile: config, atomically: true, encoding: .utf8)
        var env = bus.environment
        env["DISPLAY"] = display
        dunst = try ChildProcess.spawn("/usr/bin/dunst", ["-config", config], environment: env)
        let probe = try bus.connect()
        defer { probe.close() }
        let until = Date().addingTimeInterval(15)
        while (try? probe.nameOwner("org.freedesktop.Notifications")) == nil, Date() < until {
            guard dunst.isRunning else { throw TestError("dunst exited with \(dunst.exitCode)") }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    deinit { stop() }

    /// Markup on (as most dunst setups), the summary in bold, progress bars drawn, history kept.
    static let config = """
        [global]
            width = 440
            height = 200
            origin = top-right
            offset = 10x10
            notification_limit = 0
            progress_bar = true
            progress_bar_min_width = 400
            progress_bar_max_width = 420
            font = DejaVu Sans 10
            markup = full
            format = "<b>%s</b>\\n%b"
            history_length = 50
            sticky_history = yes
            show_age_threshold = -1
            frame_width = 2
            padding = 8
            horizontal_padding = 10
            idle_threshold = 0
            sort = no
        [urgency_low]
            background = "#1e2a38"
            foreground = "#e0e0e0"
            timeout = 0
        [urgency_normal]
            background = "#285577"
            foreground = "#ffffff"
            timeout = 0
        """

    /// The private bus and the virtual screen.
    var environment: [String: String] {
        var env = bus.environment
        env["DISPLAY"] = display
        return env
    }

    /// Runs `dunstctl args…` and returns what it printed.
    func dunstctl(_ arguments: String...) async throws -> String {
        let output = try await bus.run("/usr/bin/dunstctl", arguments)
        guard output.status == 0 else { throw TestError("dunstctl \(arguments) failed: \(output.stderr)") }
        return output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// How many notifications are on screen.
    func displayed() async throws -> Int { Int(try await dunstctl("count", "displayed")) ?? -1 }

    /// The closed notifications dunst keeps, newest first, each field unwrapped.
    func history() async throws -> [[String: Any]] {
        let text = try await dunstctl("history")
        guard let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              let data = json["data"] as? [[[String: Any]]], let list = data.first else {
            throw TestError("unexpected dunstctl history: \(text.prefix(300))")
        }
        return list.map { entry in entry.mapValues { ($0 as? [String: Any])?["data"] ?? $0 } }
    }

    /// A screenshot of the whole screen as PNG at `path`, and the number of colours in it.
    @discardableResult
    func screenshot(to path: String) async throws -> Int {
        let shot = try await bus.run("/usr/bin/import", ["-display", display, "-window", "root", "-strip", path])
        guard shot.status == 0 else { throw TestError("import failed: \(shot.stderr)") }
        let colours = try await bus.run("/usr/bin/identify", ["-format", "%k", path])
        return Int(colours.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    func stop() {
        dunst.kill()
        xvfb.kill()
    }
}
