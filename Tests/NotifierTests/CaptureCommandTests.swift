import EngramCore
import EngramTestSupport
import Foundation
import Glibc
import Testing

/// `engram capture` itself, run as a person would: with nothing to show a notification on, with a
/// notification server, alongside a learning session, and killed.
@Suite(.serialized) struct CaptureCommandTests {
    static var canRun: Bool { FileManager.default.isExecutableFile(atPath: DunstEndToEndTests.engram) }

    func capture(_ lines: String, bus: PrivateBus?, dir: TempDir, extra: [String] = [], path: String? = nil) async throws -> PrivateBus.Output {
        let input = dir.path + "/input.txt"
        try lines.write(toFile: input, atomically: true, encoding: .utf8)
        let busVariable = bus.map { "DBUS_SESSION_BUS_ADDRESS='\($0.address)'" } ?? "DBUS_SESSION_BUS_ADDRESS='unix:path=\(dir.path)/no-bus'"
        let script = "export ENGRAM_DATA_DIR='\(dir.path)/data' ENGRAM_CONFIG_DIR='\(dir.path)/config' \(busVariable)"
            + (path.map { " PATH='\($0)'" } ?? "") + "; "
            + "exec '\(DunstEndToEndTests.engram)' capture \(extra.joined(separator: " ")) < '\(input)'"
        let runner = try bus ?? PrivateBus()
        defer { if bus == nil { runner.stop() } }
        return try await runner.run("/bin/sh", ["-c", script])
    }

    @Test("Without a notification server, capture prints one note and captures every line", .enabled(if: canRun))
    func noServer() async throws {
        let dir = TempDir()
        let bus = try PrivateBus()
        defer { bus.stop() }
        let out = try await capture("one\n\ntwo\nthree\n", bus: bus, dir: dir)
        #expect(out.status == 0)
        #expect(out.stdout.hasPrefix("Captured 3 memories"), "blank lines are skipped: \(out.stdout)")
        let notes = out.stderr.split(separator: "\n")
        #expect(notes.count == 1, "one line, not one per memory: \(out.stderr)")
        #expect(notes.first?.hasPrefix("engram: no notification server is running") == true)
        let store = try Store(path: dir.path + "/data/engram.sqlite")
        let memories = try store.recentMemories(limit: 10)
        #expect(Set(memories.map(\.content)) == ["one", "two", "three"])
        #expect(memories.allSatisfy { $0.source == "capture" })
        #expect(try store.sessions().first?.state == .completed)
    }

    @Test("Without a session bus at all, capture still works", .enabled(if: canRun))
    func noBus() async throws {
        let dir = TempDir()
        let out = try await capture("alpha\n", bus: nil, dir: dir)
        #expect(out.status == 0)
        #expect(out.stdout.hasPrefix("Captured 1 memory"))
        #expect(out.stderr.split(separator: "\n").count == 1 && out.stderr.contains("no session bus"), "\(out.stderr)")
    }

    @Test("With a server: one notification, capturing → processing → complete, and its Open still works after capture exits",
          .enabled(if: canRun))
    func oneNotificationWithWorkingOpen() async throws {
        let dir = TempDir()
        let bus = try PrivateBus()
        defer { bus.stop() }
        let daemon = try MockNotificationDaemon(bus: bus, capabilities: "body actions persistence")
        // xdg-open, as the desktop would run it: here it writes down what it was asked to open.
        let bin = dir.path + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try writeScript("#!/bin/sh\nprintf '%s %s' \"$1\" \"$XDG_ACTIVATION_TOKEN\" > '\(dir.path)/opened.txt'\n", to: bin + "/xdg-open")

        let out = try await capture("first\nsecond\n", bus: bus, dir: dir, extra: ["--dismiss-after", "30"],
                                    path: bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"))
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.hasPrefix("Captured 2 memories"))
        #expect(out.stderr.isEmpty, "nothing to warn about: \(out.stderr)")
        let calls = try daemon.notifications()
        #expect(calls.first?.replacesID == 0 && calls.dropFirst().allSatisfy { $0.replacesID == 1 },
                "one notification, updated in place: \(calls.map(\.replacesID))")
        let summaries = calls.map(\.summary)
        let processing = try #require(summaries.firstIndex(of: "Capture — Processing"), "\(summaries)")
        #expect(summaries.last == "Capture — Complete" && processing < summaries.count - 1)
        let final = try #require(calls.last)
        #expect(final.body == "2 memories saved and linked\n“second”", "what the terminal said, too: linked")
        #expect(final.actions.map(\.key) == ["default"] && final.expireTimeout == 30_000)

        // capture has exited; the helper that takes the notification down in 30 s answers Open meanwhile.
        let store = try Store(path: dir.path + "/data/engram.sqlite")
        let second = try #require(try store.recentMemories(limit: 5).first { $0.content == "second" })
        // The helper starts listening a moment after capture exits: click until it answers, as a person would.
        #expect(await eventually(timeout: 10) {
            try daemon.invoke(id: 1, key: "default", token: "tok-9")
            try await Task.sleep(for: .milliseconds(200))
            return (try? String(contentsOfFile: dir.path + "/opened.txt", encoding: .utf8)) == "engram://memory/\(second.id) tok-9"
        }, "Open opened the last memory captured")
    }

    @Test("`engram session pause` with a capture running pauses the learning session; the capture keeps every line",
          .enabled(if: canRun))
    func pauseLeavesTheCaptureAlone() async throws {
        let dir = TempDir()
        let store = try makeStore(dir)
        let bus = try PrivateBus()
        defer { bus.stop() }
        let engram = Engram(dir: dir, bus: bus)

        let start = try await engram.run(["session", "start", "--curriculum", "rust"])
        #expect(start.status == 0 && start.stdout.hasPrefix("Started Rust: Topic 2"))
        #expect(start.stderr.contains("no live notification without the daemon: `engram session resume --follow`"),
                "a hint for how to get the notification: \(start.stderr)")
        let typing = try TypedCapture(engram)
        defer { typing.child.kill() }
        try typing.type("first line")
        #expect(await eventually { try store.recentMemories(limit: 5).contains { $0.content == "first line" } })

        let pause = try await engram.run(["session", "pause"])
        #expect(pause.status == 0 && pause.stdout.hasPrefix("Paused Rust: Topic 2"), "\(pause.stdout)\(pause.stderr)")
        #expect(try store.activeSession(kind: .learning)?.state == .paused)
        let capture = try #require(try store.activeCaptures().first, "the capture goes on")
        #expect(capture.state == .running)

        try typing.type("second line")
        #expect(await eventually { try store.recentMemories(limit: 5).contains { $0.content == "second line" } },
                "a line typed after the pause is captured")
        let status = try await engram.run(["session", "status"])
        let lines = status.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("Rust: Topic 2 — paused") == true, "status shows the learning session: \(status.stdout)")
        #expect(lines.count == 2 && lines[1].hasPrefix("Capturing: Capture — running"), "\(status.stdout)")
        let stop = try await engram.run(["session", "stop", "--id", capture.id])
        #expect(stop.status != 0 && stop.stderr.contains("is a capture"), "a running capture ends in its own terminal: \(stop.stderr)")

        let ended = try typing.endInput()
        #expect(ended.status == 0 && ended.stdout.hasPrefix("Captured 2 memories"), "\(ended.stdout)\(ended.stderr)")
        #expect(try store.session(id: capture.id)?.state == .completed)
        #expect(try store.activeSession(kind: .learning)?.state == .paused)
    }

    @Test("A capture killed with SIGKILL is ended as interrupted by whoever notices next, with what it captured",
          .enabled(if: canRun))
    func killedCaptureIsInterrupted() async throws {
        let dir = TempDir()
        let store = try makeStore(dir)
        let bus = try PrivateBus()
        defer { bus.stop() }
        let engram = Engram(dir: dir, bus: bus)

        for noticer in ["session status", "the next capture"] {
            let typing = try TypedCapture(engram)
            try typing.type("typed before the kill")
            #expect(await eventually { try store.activeCaptures().first?.progressDone == 1 })
            let session = try #require(try store.activeCaptures().first)
            typing.child.kill()

            let out = noticer == "session status" ? try await engram.run(["session", "status"])
                                                  : try await engram.run(["capture"], stdin: "after\n")
            #expect(out.status == 0)
            #expect(out.stderr.contains("capture “Capture” (\(session.id)) was interrupted: its process ended before its input did; its 1 memory is saved"),
                    "\(noticer): \(out.stderr)")
            if noticer == "session status" {
                #expect(out.stdout == "No learning session is running.\n", "no capture left running: \(out.stdout)")
            }
            let ended = try #require(try store.session(id: session.id))
            #expect(ended.state == .stopped && ended.progressDone == 1 && ended.ended != nil)
        }
        #expect(try store.recentMemories(limit: 10).filter { $0.content == "typed before the kill" }.count == 2, "nothing captured was lost")
        #expect(try store.activeCaptures().isEmpty)
    }
}

/// `engram session start --follow` without a daemon: it shows the session itself.
@Suite(.serialized) struct FollowCommandTests {
    @Test("--follow shows the session while no daemon runs; its end carries no button nobody would answer",
          .enabled(if: CaptureCommandTests.canRun))
    func followWithoutDaemon() async throws {
        let dir = TempDir()
        let store = try makeStore(dir)
        let bus = try PrivateBus()
        defer { bus.stop() }
        let daemon = try MockNotificationDaemon(bus: bus, capabilities: "body actions persistence")
        let engram = Engram(dir: dir, bus: bus)
        let follow = try ChildProcess.spawn(DunstEndToEndTests.engram, ["session", "start", "--curriculum", "rust", "--follow"],
                                            environment: engram.environment)
        defer { follow.kill() }
        #expect(await eventually { try daemon.notifications().first?.summary == "Rust: Topic 2 — Studying" })
        #expect(try daemon.notifications().first?.actions.map(\.key) == ["pause", "stop", "default"])
        let session = try #require(try store.activeSession())
        #expect(session.host.flatMap(ProcessIdentity.pid(of:)) == follow.pid, "the --follow process hosts it")

        #expect(try await engram.run(["session", "stop"]).status == 0)
        #expect(await eventually { try daemon.notifications().last?.summary == "Rust: Topic 2 — Stopped" })
        #expect(await eventually { !follow.isRunning }, "--follow returns when the session ends")
        let final = try #require(try daemon.notifications().last)
        #expect(final.replacesID == 1)
        #expect(final.actions.isEmpty, "no Open once --follow has exited: \(final.actions)")
    }
}

/// The built `engram` on a test's data folder and bus.
struct Engram {
    let dir: TempDir
    let bus: PrivateBus

    var environment: [String: String] {
        var env = bus.environment
        env["ENGRAM_DATA_DIR"] = dir.path + "/data"
        env["ENGRAM_CONFIG_DIR"] = dir.path + "/config"
        return env
    }

    /// Runs `engram arguments…` with `stdin` as its input, to the end.
    func run(_ arguments: [String], stdin: String = "") async throws -> PrivateBus.Output {
        let input = dir.path + "/stdin-\(UUID().uuidString)"
        try stdin.write(toFile: input, atomically: true, encoding: .utf8)
        let command = ([DunstEndToEndTests.engram] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let environment = self.environment
        return try await onThread { try runProgram("/bin/sh", ["-c", "exec \(command) < '\(input)'"], environment: environment, timeout: 30) }
    }
}

/// `engram capture` reading lines from a pipe the test writes, as a person typing at a terminal.
final class TypedCapture: @unchecked Sendable {
    let child: ChildProcess
    private var writer: Int32
    private let output: String

    init(_ engram: Engram) throws {
        let fifo = engram.dir.path + "/typing-\(UUID().uuidString)"
        output = fifo + ".out"
        guard mkfifo(fifo, 0o600) == 0 else { throw TestError("mkfifo failed: errno \(errno)") }
        // Both ends open here, so opening never blocks and the capture sees the end only when endInput() closes it.
        writer = open(fifo, O_RDWR | O_CLOEXEC)
        guard writer >= 0 else { throw TestError("cannot open the pipe: errno \(errno)") }
        child = try ChildProcess.spawn("/bin/sh", ["-c", "exec '\(DunstEndToEndTests.engram)' capture < '\(fifo)' > '\(output)' 2> '\(output).err'"],
                                       environment: engram.environment)
    }

    /// Types `line` and Enter.
    func type(_ line: String) throws {
        let bytes = Array((line + "\n").utf8)
        guard write(writer, bytes, bytes.count) == bytes.count else { throw TestError("write failed: errno \(errno)") }
    }

    /// Ctrl-D: ends the input and waits for the capture to finish.
    func endInput() throws -> ProgramOutput {
        close(writer)
        writer = -1
        let status = child.exitCode
        return ProgramOutput(status: status, stdout: (try? String(contentsOfFile: output, encoding: .utf8)) ?? "",
                             stderr: (try? String(contentsOfFile: output + ".err", encoding: .utf8)) ?? "")
    }

    deinit { if writer >= 0 { close(writer) } }
}
