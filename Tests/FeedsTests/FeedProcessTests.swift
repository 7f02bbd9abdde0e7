import EngramCore
import Feeds
import Foundation
import Testing

/// The built `engram-feed` binary, run as a bar runs it.
@Suite(.serialized) struct FeedProcessTests {
    /// `engram-feed` beside the test bundle (or `$ENGRAM_FEED_BIN`).
    static let binary: String = {
        if let b = ProcessInfo.processInfo.environment["ENGRAM_FEED_BIN"] { return b }
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for dir in [here, here.deletingLastPathComponent(), here.deletingLastPathComponent().deletingLastPathComponent()] {
            let candidate = dir.appendingPathComponent("engram-feed").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/engram-feed").path
    }()

    /// The environment for a fixture: its data folder, an empty config folder, UTC+1 and (optionally) a pinned clock.
    static func environment(_ f: FeedFixture, now: String? = "2026-11-22T10:00:00Z") -> [String: String] {
        var e = ["PATH": "/usr/bin:/bin", "HOME": f.dir.path, "TZ": "UTC-1",
                 "ENGRAM_DATA_DIR": f.dir.path + "/data", "ENGRAM_CONFIG_DIR": f.dir.path + "/config"]
        e["ENGRAM_NOW"] = now
        return e
    }

    struct Output { var status: Int32; var stdout: String; var stderr: String }

    static func run(_ args: [String], env: [String: String], executable: String = binary) throws -> Output {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = args
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Output(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    @Test("the binary prints exactly what the library renders", arguments: [FeedName.motd, .stats, .review, .session, .recent])
    func binaryMatchesLibrary(_ name: FeedName) throws {
        let f = try FeedFixture.standard()
        for format in FeedFormat.allCases {
            for size in FeedSize.allCases {
                let out = try Self.run([name.rawValue, "--format", format.rawValue, "--size", size.rawValue], env: Self.environment(f))
                let expected = format.renderer.render(try f.build(FeedRequest(name, size: size))) + "\n"
                #expect(out.status == 0, "\(name) \(format): \(out.stderr)")
                #expect(out.stdout == expected, "\(name) \(format) \(size)")
            }
        }
    }

    @Test("two processes at either end of a day show the same memory of the day")
    func sameAcrossProcesses() throws {
        let f = try MemoryOfTheDayTests.samples()
        func id(_ now: String) throws -> String? {
            let out = try Self.run(["motd", "--format", "json"], env: Self.environment(f, now: now))
            let o = try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any]
            return (o?["memory"] as? [String: Any])?["id"] as? String
        }
        let early = try #require(try id("2026-11-22T00:05:00+01:00"))
        #expect(try id("2026-11-22T23:55:00+01:00") == early)
        #expect(try id("2026-11-23T12:00:00+01:00") != early)
    }

    @Test("days across a daylight-saving change are the days Store.stats counts in that zone",
          arguments: [("Europe/Paris", "2026-03-30T08:00:00Z"), ("America/New_York", "2026-03-09T13:00:00Z"),
                      ("Europe/Paris", "2026-10-26T07:00:00Z"), ("Australia/Lord_Howe", "2026-04-06T01:00:00Z")])
    func daylightSaving(_ zone: String, _ now: String) throws {
        let f = try FeedFixture()
        let end = date(now)
        // A capture every 37 minutes for twelve days: some land in every local hour, on both sides of midnight.
        try f.add(stride(from: 0, to: 12 * 24 * 60, by: 37).map { m in
            Memory(id: "d\(m)", content: "capture \(m)", created: end.addingTimeInterval(-Double(m) * 60))
        })
        var env = Self.environment(f, now: now)
        env["TZ"] = zone
        let out = try Self.run(["stats", "--format", "json"], env: env)
        let o = try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any]
        let stats = try #require(o?["stats"] as? [String: Any])
        let core = try f.store.stats(now: end, decay: .standard, timeZone: try #require(TimeZone(identifier: zone)))
        #expect(stats["today"] as? Int == core.today, "\(zone)")
        #expect(stats["thisWeek"] as? Int == core.thisWeek, "\(zone)")
        #expect(stats["streakDays"] as? Int == core.streakDays, "\(zone)")
    }

    @Test("feeds never write the store")
    func readOnly() throws {
        let f = try FeedFixture.standard()
        let files = ["", "-wal"].map { f.storePath + $0 }
        let before = files.map { FileManager.default.contents(atPath: $0) }
        for name in FeedName.allCases {
            for format in [FeedFormat.json, .waybar] {
                _ = try Self.run([name.rawValue, "--format", format.rawValue], env: Self.environment(f))
            }
        }
        #expect(files.map { FileManager.default.contents(atPath: $0) } == before)
    }

    @Test("no store: exit 0 and an empty (hidden) module; a damaged store: exit 74, a warning and an error class")
    func failures() throws {
        let f = try FeedFixture()
        let env = Self.environment(f)
        try FileManager.default.removeItem(atPath: f.dir.path + "/data")
        let missing = try Self.run(["motd", "--format", "waybar"], env: env)
        #expect(missing.status == 0)
        #expect(missing.stdout.hasPrefix(#"{"text":"","#))
        #expect(!FileManager.default.fileExists(atPath: f.dir.path + "/data/engram.sqlite"), "a feed created the store")

        try FileManager.default.createDirectory(atPath: f.dir.path + "/data", withIntermediateDirectories: true)
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: f.dir.path + "/data/engram.sqlite"))
        let damaged = try Self.run(["motd", "--format", "waybar"], env: env)
        #expect(damaged.status == 74)
        #expect(damaged.stderr.contains("damaged"))
        #expect(damaged.stdout.contains(#""class":["error"]"#))
    }

    @Test("usage errors exit 64 with a sentence", arguments: [
        ["motd", "--format", "waybar", "--parsed"], ["motd", "--format", "conky", "--watch"], ["weather"], ["motd", "--size", "huge"],
    ])
    func usage(_ args: [String]) throws {
        let out = try Self.run(args, env: Self.environment(try FeedFixture()))
        #expect(out.status == 64, "\(args): \(out.status) \(out.stderr)")
        #expect(!out.stderr.isEmpty)
    }

    /// A running `--watch` process whose output lines are collected as they arrive.
    final class Watch: @unchecked Sendable {
        let process = Process()
        let out = Pipe()
        private let lock = NSLock()
        private var buffer = ""

        init(_ args: [String], env: [String: String]) throws {
            process.executableURL = URL(fileURLWithPath: FeedProcessTests.binary)
            process.arguments = args
            process.environment = env
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            out.fileHandleForReading.readabilityHandler = { [weak self] h in
                let d = h.availableData
                guard let self, !d.isEmpty else { return }
                self.lock.lock(); self.buffer += String(decoding: d, as: UTF8.self); self.lock.unlock()
            }
            try process.run()
        }

        var lines: [String] {
            lock.lock(); defer { lock.unlock() }
            return buffer.split(separator: "\n").map(String.init)
        }

        /// Waits up to `seconds` for at least `count` lines.
        func waitForLines(_ count: Int, seconds: Double) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if lines.count >= count { return true }
                usleep(20_000)
            }
            return lines.count >= count
        }

        func signal(_ sig: Int32) { kill(process.processIdentifier, sig) }

        /// Ends the process: SIGTERM as a bar sends it, then SIGKILL if it is still there after two seconds.
        func stop() {
            out.fileHandleForReading.readabilityHandler = nil
            if process.isRunning { process.terminate() }
            let deadline = Date().addingTimeInterval(2)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
    }

    @Test("--watch survives every real-time signal and takes one as 'refresh now'")
    func watchSignals() throws {
        let f = try FeedFixture()
        let watch = try Watch(["session", "--format", "waybar", "--watch", "--interval", "60"], env: Self.environment(f, now: nil))
        defer { watch.stop() }
        #expect(watch.waitForLines(1, seconds: 10))
        #expect(watch.lines.first?.contains(#""class":["idle"]"#) == true)
        for sig in FeedSignals.realtime {
            watch.signal(sig)
            usleep(5_000)
        }
        usleep(300_000)
        #expect(watch.process.isRunning, "a real-time signal killed the watching feed")
        #expect(watch.lines.count == 1, "an unchanged feed printed again: \(watch.lines)")

        f.clock.set(Date())
        _ = try f.store.startCaptureSession(title: "Inbox zero")
        watch.signal(FeedSignals.realtime.lowerBound + 8)
        #expect(watch.waitForLines(2, seconds: 5), "no refresh after the signal (the interval is 60 s)")
        #expect(watch.lines.last?.contains("Inbox zero") == true)
        #expect(watch.lines.last?.contains(#""class":["running","capture"]"#) == true)

        // Waybar ends its modules with SIGTERM, whatever signal mask it left them.
        watch.process.terminate()
        let deadline = Date().addingTimeInterval(2)
        while watch.process.isRunning && Date() < deadline { usleep(20_000) }
        #expect(!watch.process.isRunning, "SIGTERM did not end the watching feed")
    }

    @Test("--watch ends when the bar dies without closing the pipe (the feed is handed to another parent)")
    func watchEndsWithParent() throws {
        let f = try FeedFixture()
        let pidFile = f.dir.path + "/feed.pid"
        let env = Self.environment(f, now: nil).map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        // The "bar" starts the feed and dies half a second later; the feed's output goes nowhere, never failing.
        try EngramShell.run("env \(env) '\(Self.binary)' session --format json --watch --interval 1 >/dev/null 2>&1 </dev/null & echo $! > '\(pidFile)'; sleep 0.5")
        let pid = try #require(Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        let deadline = Date().addingTimeInterval(5)
        while kill(pid, 0) == 0 && Date() < deadline { usleep(50_000) }
        let outlived = kill(pid, 0) == 0
        if outlived { kill(pid, SIGKILL) }
        #expect(!outlived, "the watching feed outlived the process that started it")
    }

    @Test("--watch ends quietly when the bar closes the pipe")
    func watchEndsWithReader() throws {
        let f = try FeedFixture()
        let dir = f.dir.path
        let env = Self.environment(f, now: nil).map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        // The pipe belongs to a shell, not to this test process: a child spawned by a test running in
        // parallel would otherwise inherit its read end and keep it open, and the feed would never see EPIPE.
        // `head -n 1` is the bar that reads one line and closes the pipe.
        let line = "{ env \(env) sh -c 'echo $$ > \"$0\"; exec \"$@\"' '\(dir)/feed.pid' '\(Self.binary)' session --format json --watch --interval 60 2>/dev/null; echo $? > '\(dir)/status'; } | head -n 1 > '\(dir)/first'"
        try EngramShell.run("(\(line)) </dev/null >/dev/null 2>&1 &")
        func read(_ name: String) -> String? {
            (try? String(contentsOfFile: dir + "/" + name, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        var deadline = Date().addingTimeInterval(10)
        while (read("first") ?? "").isEmpty && Date() < deadline { usleep(20_000) }
        #expect(read("first")?.contains(#""state":"idle""#) == true, "no first line: \(read("first") ?? "nil")")
        let pid = try #require(read("feed.pid").flatMap { Int32($0) })
        f.clock.set(Date())
        _ = try f.store.startCaptureSession(title: "changed")
        kill(pid, FeedSignals.realtime.lowerBound + 1)
        // Generous: on a loaded 2-core machine the refresh and the reaping can each take seconds.
        deadline = Date().addingTimeInterval(20)
        while read("status") == nil && Date() < deadline { usleep(20_000) }
        if read("status") == nil { kill(pid, SIGKILL) }
        #expect(read("status") == "0", "the feed kept running with nobody reading, or did not exit 0: \(read("status") ?? "still running")")
    }
}

/// Runs a shell line with posix_spawn and waits for the shell alone (Foundation's `Process` would also
/// wait for any background job the line leaves behind).
enum EngramShell {
    static func run(_ line: String) throws {
        var pid: pid_t = 0
        let words: [String] = ["/bin/sh", "-c", line]
        var argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        guard posix_spawn(&pid, "/bin/sh", nil, nil, &argv, environ) == 0 else { throw Failure("cannot start /bin/sh") }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    struct Failure: Error { var message: String; init(_ m: String) { message = m } }
}
