import EngramCore
import EngramTestSupport
import Foundation
import Testing

/// The built `engram` against real dunst on a virtual screen: a learning session followed live, a capture
/// session with hostile text, the person dismissing, read back with `dunstctl history` and photographed.
@Suite(.serialized) struct DunstEndToEndTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `engram` binary beside the test bundle (or `$ENGRAM_BIN`).
    static let engram: String = {
        if let b = ProcessInfo.processInfo.environment["ENGRAM_BIN"] { return b }
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for dir in [here, here.deletingLastPathComponent()] {
            let candidate = dir.appendingPathComponent("engram").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return root.appendingPathComponent(".build/debug/engram").path
    }()

    @Test("A live learning session and a capture session on real dunst")
    func liveSessionOnDunst() async throws {
        try #require(DunstDesktop.available, "\(DunstDesktop.missing)")
        try #require(FileManager.default.isExecutableFile(atPath: Self.engram), "no engram binary at \(Self.engram): swift build first")
        let dir = TempDir()
        let bus = try PrivateBus()
        let desktop = try DunstDesktop(bus: bus, directory: dir.path)
        defer { desktop.stop(); bus.stop() }
        let store = try Store(path: dir.path + "/data/engram.sqlite")
        try store.upsertCurriculum(
            Curriculum(id: "rust", title: "Rust <ownership> & borrowing", created: Date()),
            topics: (1...4).map { Topic(id: "rust-\($0)", curriculumID: "rust", position: $0, title: "Topic \($0)", done: $0 == 1, created: Date()) })

        var env = desktop.environment
        env["ENGRAM_DATA_DIR"] = dir.path + "/data"
        env["ENGRAM_CONFIG_DIR"] = dir.path + "/config"
        let environment = env
        let inputPath = dir.path + "/input.txt"
        func engram(_ arguments: [String], stdin: String = "") async throws -> PrivateBus.Output {
            try stdin.write(toFile: inputPath, atomically: true, encoding: .utf8)
            let command = ([Self.engram] + arguments).map { "'\($0)'" }.joined(separator: " ") + " < '\(inputPath)'"
            let exports = environment.filter { ["DISPLAY", "ENGRAM_DATA_DIR", "ENGRAM_CONFIG_DIR"].contains($0.key) }
                .map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
            return try await bus.run("/bin/sh", ["-c", "export \(exports); exec \(command)"])
        }

        // `engram session start --follow` keeps the live notification in the foreground.
        let follow = try ChildProcess.spawn(Self.engram, ["session", "start", "--curriculum", "rust", "--follow"], environment: env)
        defer { follow.kill() }
        #expect(await eventually(timeout: 10) { try await desktop.displayed() == 1 }, "the session's notification is on screen")

        // Plain CLI commands change the store; the following process updates the notification in place.
        #expect(try await engram(["session", "next"]).status == 0)
        try await Task.sleep(for: .milliseconds(1600))
        #expect(try await engram(["session", "pause"]).status == 0)
        try await Task.sleep(for: .milliseconds(1600))
        #expect(try await desktop.displayed() == 1, "still one notification: updated in place, not stacked")

        // A capture session, hostile text last so it is the one shown.
        let capture = try await engram(["capture", "--dismiss-after", "120"],
                                 stdin: "first thought\n<b>not bold</b> & ${exec id} <span color='red'>x</span>\n")
        #expect(capture.status == 0, "capture: \(capture.stderr)")
        #expect(capture.stdout.hasPrefix("Captured 2 memories"))
        #expect(await eventually(timeout: 5) { try await desktop.displayed() == 2 })

        let shot = dir.path + "/dunst.png"
        let colours = try await desktop.screenshot(to: shot)
        #expect(colours > 16, "the screenshot shows drawn notifications, not an empty screen (\(colours) colours)")
        if ProcessInfo.processInfo.environment["ENGRAM_UPDATE_SCREENSHOTS"] == "1" {
            let target = Self.root.appendingPathComponent("Integrations/notifications/dunst-live-sessions.png").path
            try? FileManager.default.removeItem(atPath: target)
            try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: shot, toPath: target)
        }

        // The person dismisses everything: the learning session goes on, its notification never comes back.
        _ = try await desktop.dunstctl("close-all")
        #expect(await eventually { try await desktop.displayed() == 0 })
        #expect(try await engram(["session", "resume"]).status == 0)
        try await Task.sleep(for: .milliseconds(1800))
        #expect(try await desktop.displayed() == 0, "a dismissed live notification is not re-popped")
        #expect(try store.activeSession(kind: .learning)?.state == .running)
        #expect(try await engram(["session", "stop"]).status == 0)
        #expect(await eventually(timeout: 5) { !follow.isRunning }, "--follow returns when the session ends")
        #expect(follow.exitCode == 0)
        #expect(try await desktop.displayed() == 0, "not even the end is shown after a dismissal")

        // dunst's history holds what the person saw, last state of each.
        let history = try await desktop.history()
        let learning = history.filter { ($0["summary"] as? String)?.hasPrefix("Rust") == true }
        #expect(learning.count == 1, "one entry for the whole learning session: \(learning)")
        let session = try #require(learning.first)
        #expect(session["summary"] as? String == "Rust <ownership> & borrowing: Topic 3 — Paused")
        #expect(session["appname"] as? String == "Engram")
        #expect(session["progress"] as? Int == 50, "dunst drew the int32 value hint as a 50 % bar")
        #expect((session["body"] as? String)?.hasPrefix("2 of 4 topics done") == true)
        let captured = try #require(history.first { ($0["summary"] as? String) == "Capture — Complete" })
        #expect(captured["body"] as? String ==
                "2 memories saved and linked\n<i>“&lt;b&gt;not bold&lt;/b&gt; &amp; ${exec id} &lt;span color='red'&gt;x&lt;/span&gt;”</i>",
                "hostile text escaped for dunst's markup")
    }
}
