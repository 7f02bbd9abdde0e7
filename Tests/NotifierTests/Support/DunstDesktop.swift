import Foundation

/// A real notification server on a virtual screen: Xvfb plus dunst on a private bus, read back with
/// `dunstctl` and photographed with ImageMagick's `import`.
final class DunstDesktop: @unchecked Sendable {
    static let tools = ["/usr/bin/Xvfb", "/usr/bin/dunst", "/usr/bin/dunstctl", "/usr/bin/busctl", "/usr/bin/import", "/usr/bin/identify"]

    /// Whether the programs are here, installing them first with the project's script when they are not.
    static let available: Bool = {
        func present() -> Bool { tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) } }
        if present() { return true }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts/install-deps.sh").path
        let install = Process()
        install.executableURL = URL(fileURLWithPath: "/bin/bash")
        install.arguments = [script]
        try? install.run()
        install.waitUntilExit()
        return present()
    }()

    let bus: PrivateBus
    let display: String
    let directory: String
    private let xvfb: Process
    private let dunst: Process

    init(bus: PrivateBus, directory: String) throws {
        self.bus = bus
        self.directory = directory
        xvfb = Process()
        xvfb.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        xvfb.arguments = ["-displayfd", "1", "-screen", "0", "800x300x24", "-nolisten", "tcp"]
        let out = Pipe()
        xvfb.standardOutput = out
        xvfb.standardError = FileHandle.nullDevice
        try xvfb.run()
        var text = ""
        let deadline = Date().addingTimeInterval(15)
        while !text.contains("\n"), Date() < deadline {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            PrivateBus.kill(xvfb)
            throw PrivateBusError("Xvfb did not report a display (got \(text.debugDescription))")
        }
        display = ":\(number)"

        let config = directory + "/dunstrc"
        try Self.config.write(toFile: config, atomically: true, encoding: .utf8)
        dunst = Process()
        dunst.executableURL = URL(fileURLWithPath: "/usr/bin/dunst")
        dunst.arguments = ["-config", config]
        dunst.environment = environment
        dunst.standardOutput = FileHandle.nullDevice
        dunst.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try dunst.run()
        let probe = try bus.connect()
        defer { probe.close() }
        let until = Date().addingTimeInterval(15)
        while (try? probe.nameOwner("org.freedesktop.Notifications")) == nil, Date() < until {
            guard dunst.isRunning else { throw PrivateBusError("dunst exited with \(dunst.terminationStatus)") }
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
    func dunstctl(_ arguments: String...) throws -> String {
        let output = try bus.run("/usr/bin/dunstctl", arguments)
        guard output.status == 0 else { throw PrivateBusError("dunstctl \(arguments) failed: \(output.stderr)") }
        return output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// How many notifications are on screen.
    func displayed() throws -> Int { Int(try dunstctl("count", "displayed")) ?? -1 }

    /// The closed notifications dunst keeps, newest first, each field unwrapped.
    func history() throws -> [[String: Any]] {
        let text = try dunstctl("history")
        guard let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              let data = json["data"] as? [[[String: Any]]], let list = data.first else {
            throw PrivateBusError("unexpected dunstctl history: \(text.prefix(300))")
        }
        return list.map { entry in entry.mapValues { ($0 as? [String: Any])?["data"] ?? $0 } }
    }

    /// A screenshot of the whole screen as PNG at `path`, and the number of colours in it.
    @discardableResult
    func screenshot(to path: String) throws -> Int {
        let shot = try bus.run("/usr/bin/import", ["-display", display, "-window", "root", "-strip", path])
        guard shot.status == 0 else { throw PrivateBusError("import failed: \(shot.stderr)") }
        let colours = try bus.run("/usr/bin/identify", ["-format", "%k", path])
        return Int(colours.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    func stop() {
        PrivateBus.kill(dunst)
        PrivateBus.kill(xvfb)
    }
}
