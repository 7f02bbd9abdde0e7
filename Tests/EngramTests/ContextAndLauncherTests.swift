import EngramCore
import EngramTestSupport
import Foundation
import Testing

/// Contexts reach every surface a person looks at (feeds, stats, search, captures through links), and rofi's
/// script mode offers a typed command as a row that runs the intent.
@Suite(.serialized) struct ContextAndLauncherTests {
    static let workCount = 128  // Samples/memories.jsonl: 128 work, 119 personal, 29 reading, 90 without a context

    func json(_ out: EngramProcess.Output) throws -> [String: Any] {
        guard out.status == 0 else { throw Failure("exit \(out.status): \(out.stderr)") }
        return try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any] ?? [:]
    }

    @Test func workContextFiltersFeedsAndStatsAndSleepHidesEverything() throws {
        let e = EngramProcess()
        try e.importSamples()
        #expect(try json(e.run(["feed", "stats", "--format", "json"]))["stats"].flatMap { ($0 as? [String: Any])?["total"] as? Int } == 300)

        #expect(try e.run(["context", "set", "work"]).status == 0)
        let recent = try json(e.run(["feed", "recent", "--format", "json", "--limit", "40"]))
        let contexts = (recent["memories"] as? [[String: Any]] ?? []).map { $0["context"] as? String ?? "none" }
        #expect(contexts.count == 40 && Set(contexts) == ["work"], "\(Set(contexts))")
        let motd = try json(e.run(["feed", "motd", "--format", "json"]))
        #expect((motd["memory"] as? [String: Any])?["context"] as? String == "work")
        let feedStats = try json(e.run(["feed", "stats", "--format", "json"]))
        #expect((feedStats["stats"] as? [String: Any])?["total"] as? Int == Self.workCount)
        #expect(try json(e.run(["stats", "--json"]))["total"] as? Int == Self.workCount, "`engram stats` ignored the context")
        #expect(try e.run(["stats"]).stdout.hasPrefix("Context: work"))

        #expect(try e.run(["context", "set", "sleep"]).status == 0)
        for feed in ["recent", "motd", "stats"] {
            let quiet = try json(e.run(["feed", feed, "--format", "json"]))
            #expect(quiet["state"] as? String == "sleep", "\(feed): \(quiet)")
            #expect((quiet["memories"] as? [Any] ?? []).isEmpty && !(quiet["memory"] is [String: Any]))
        }
        #expect(try e.run(["stats"]).stdout.hasPrefix("The sleep context is on"))
        #expect(try json(e.run(["stats", "--json"]))["total"] as? Int == 0)
        #expect(try e.searchIDs("swift").isEmpty)
        #expect(try e.run(["related", "s165"]).status == 1, "related memories showed while sleeping")
    }

    @Test func capturesThroughLinksAndTheCLIGetTheActiveContext() throws {
        let e = EngramProcess()
        try e.importSamples()
        #expect(try e.run(["context", "set", "work"]).status == 0)
        #expect(try e.run(["open", "engram://remember?text=Book%20the%20retro%20room"]).status == 0)
        #expect(try e.run(["remember", "Renew the parking permit"]).status == 0)
        #expect(try e.run(["remember", "--context", "personal", "Call grandma"]).status == 0)
        for (words, expected) in [("retro room", "work"), ("parking permit", "work")] {
            let id = try #require(try e.searchIDs(words).first, "\(words) is not found in the work context")
            #expect(try json(e.run(["show", "--peek", "--json", id]))["context"] as? String == expected)
        }
        #expect(try e.searchIDs("grandma").isEmpty, "a personal memory showed in the work context")
        #expect(try e.run(["context", "clear"]).status == 0)
        let grandma = try #require(try e.searchIDs("grandma").first)
        #expect(try json(e.run(["show", "--peek", "--json", grandma]))["context"] as? String == "personal")
    }

    // MARK: rofi

    static let rofiScript = EngramProcess.root + "/Integrations/bin/engram-rofi"

    /// Runs the rofi script as rofi does: `ROFI_RETV` (and `ROFI_INFO`), the chosen or typed text as the argument.
    func rofi(_ e: EngramProcess, retv: Int, info: String? = nil, _ text: String? = nil) throws -> String {
        var env = e.baseEnvironment
        env["ENGRAM"] = EngramProcess.binary
        env["ENGRAM_FEED"] = URL(fileURLWithPath: EngramProcess.binary).deletingLastPathComponent().appendingPathComponent("engram-feed").path
        env["ROFI_RETV"] = String(retv)
        if let info { env["ROFI_INFO"] = info }
        let out = try EngramProcess.exec("/bin/bash", [Self.rofiScript] + (text.map { [$0] } ?? []), env: env)
        guard out.status == 0 else { throw Failure("engram-rofi exited \(out.status): \(out.stderr)") }
        return out.stdout
    }

    @Test func rofiOffersATypedCommandAsARowThatRunsIt() throws {
        let e = EngramProcess()
        try e.importSamples()
        // Typed (Ctrl+Enter, or Enter with nothing matching): the command's row and a "remember as typed" row; nothing runs yet.
        let offered = try rofi(e, retv: 2, "remember buy oat milk")
        #expect(offered.contains("▶ Store a memory: “buy oat milk”\0icon\u{1f}system-run\u{1f}info\u{1f}:ask:remember buy oat milk\n"), "\(offered)")
        #expect(offered.contains("Remember “remember buy oat milk”\0icon\u{1f}document-new\u{1f}info\u{1f}:remember:remember buy oat milk\n"))
        #expect(try e.searchIDs("oat milk").isEmpty)

        // Choosing the row runs the intent and says so in the message line.
        let ran = try rofi(e, retv: 1, info: ":ask:remember buy oat milk", "▶ Store a memory: “buy oat milk”")
        #expect(ran.contains("\0message\u{1f}Remembered “buy oat milk”."), "\(ran)")
        let id = try #require(try e.searchIDs("oat milk").first)
        #expect(try json(e.run(["show", "--peek", "--json", id]))["content"] as? String == "buy oat milk")

        // A session command from rofi starts the session.
        #expect(try rofi(e, retv: 2, "start studying swift concurrency").contains("▶ Start studying: “swift concurrency”"))
        _ = try rofi(e, retv: 1, info: ":ask:start studying swift concurrency", "▶ Start studying")
        #expect(try e.run(["session", "status"]).stdout.contains("Swift Concurrency"))

        // Text that is no command is remembered as before; the second row keeps a command-like text verbatim.
        _ = try rofi(e, retv: 2, "Call the plumber about the boiler")
        #expect(try !e.searchIDs("plumber boiler").isEmpty)
        _ = try rofi(e, retv: 1, info: ":remember:find my keys", "Remember “find my keys”")
        let keys = try #require(try e.searchIDs("keys").first)
        #expect(try json(e.run(["show", "--peek", "--json", keys]))["content"] as? String == "find my keys")
    }
}

/// The privacy switch that forgets usage, and `--speak` saying what `ask` printed.
@Suite(.serialized) struct PrivacyAndSpeechTests {
    @Test func clearActivityForgetsUsageButKeepsMemoriesAndPendingIntents() throws {
        let e = EngramProcess()
        try e.importSamples()
        #expect(try !e.searchIDs("sourdough").isEmpty)
        #expect(try e.run(["show", "s165"]).status == 0)
        #expect(try e.run(["ask", "--in", "1h", "daily review"]).status == 0)
        let store = try Store(path: e.storePath, readOnly: true)
        #expect(try store.pendingIntents().count == 1)
        #expect(try !store.activity(limit: 10).isEmpty)

        let cleared = try e.run(["privacy", "clear-activity"])
        #expect(cleared.status == 0 && cleared.stdout.hasPrefix("Cleared ") && !cleared.stdout.hasPrefix("Cleared 0 "), "\(cleared.stdout)")
        #expect(try store.activity(limit: 10).isEmpty)
        #expect(try store.pendingIntents().map(\.intent).contains("DailyReview"), "a pending intent was lost")
        #expect(try store.memoryCount() == 300)
        #expect(try e.run(["privacy", "clear-activity"]).stdout.hasPrefix("Cleared 0 activity entries"))
    }

    /// `engram ask --speak` says the very sentence it printed, the way [voice] tts names (here speech-dispatcher).
    @Test func speakSaysThePrintedSentence() throws {
        let e = EngramProcess()
        try e.importSamples()
        let dir = NSTemporaryDirectory() + "engram-speak-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Stands in for spd-say (a speech service needs a sound card): records its argv. Only the stand-in is on PATH.
        try writeScript("#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\" >> \"\(dir)/said\"; done\n", to: dir + "/spd-say")
        try "[voice]\ntts = \"speech-dispatcher\"\n".write(toFile: e.configDir + "/config.toml", atomically: true, encoding: .utf8)
        let out = try e.run(["ask", "--speak", "memory stats"], env: ["PATH": dir])
        #expect(out.status == 0, "\(out.stderr)")
        let sentence = try #require(out.stdout.split(separator: "\n").first.map(String.init))
        #expect(sentence.hasPrefix("You have 300 memories"))
        #expect(try String(contentsOfFile: dir + "/said", encoding: .utf8) == "--wait\n--\n\(sentence)\n")

        let none = try e.run(["ask", "--speak", "memory stats"], env: ["PATH": dir + "/nothing"])
        #expect(none.status != 0 && none.stderr.contains("apt install speech-dispatcher"), "\(none.stderr)")
    }
}
