import Foundation
import EngramTestSupport
import Testing

/// `engram open`, the engram:// handler a browser or launcher runs, end to end on the sample collection: each kind
/// of link does what it says, and anything else is refused with one sentence, changing and starting nothing.
@Suite(.serialized) struct OpenCommandTests {
    func json(_ out: EngramProcess.Output) throws -> Any {
        guard out.status == 0 else { throw Failure("exit \(out.status): \(out.stderr)") }
        return try JSONSerialization.jsonObject(with: Data(out.stdout.utf8), options: [.fragmentsAllowed])
    }

    func memory(_ e: EngramProcess, _ id: String) throws -> [String: Any] {
        try json(e.run(["show", "--peek", "--json", id])) as? [String: Any] ?? [:]
    }

    @Test func memorySearchCurriculumTopicAndSessionLinksDoWhatTheySay() throws {
        let e = EngramProcess()
        try e.importSamples()

        // A memory: its whole text, and it is strengthened.
        let before = try memory(e, "s165")
        let opened = try e.run(["open", "engram://memory/s165"])
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(opened.stdout == (before["content"] as? String ?? "?") + "\n")
        #expect(try memory(e, "s165")["useCount"] as? Int == (before["useCount"] as? Int ?? -1) + 1)

        // A search: the sentence, then the results; searching strengthens nothing.
        let found = try e.run(["open", "engram://search?q=focaccia"])
        #expect(found.status == 0)
        #expect(found.stdout.hasPrefix("Found 1 result for focaccia.\ns165  "), "\(found.stdout)")
        #expect(try memory(e, "s165")["useCount"] as? Int == (before["useCount"] as? Int ?? -1) + 1)
        // Nothing found: one sentence naming what was searched (and a suggestion when there is one).
        let nothing = try e.run(["open", "engram://search?q=zzqqx"])
        #expect(nothing.status == 0)
        #expect(nothing.stdout == "No results for zzqqx.\n")
        let misspelt = try e.run(["open", "engram://search?q=sourdogh"])
        #expect(misspelt.stdout == "No results for sourdogh. Did you mean: sourdough?\n")
        // The query comes from a link: an escape sequence in it is shown, never sent to the terminal.
        let escaped = try e.run(["open", "engram://search?q=%1B%5B2Jzzqqx"])
        #expect(escaped.status == 0)
        #expect(!escaped.stdout.contains("\u{1B}") && escaped.stdout.hasSuffix("[2Jzzqqx.\n"), "\(escaped.stdout.debugDescription)")

        // A curriculum: progress, then every topic with its id.
        let curriculum = try e.run(["open", "engram://curriculum/swift-concurrency"])
        #expect(curriculum.status == 0)
        let lines = curriculum.stdout.split(separator: "\n")
        #expect(lines.first?.range(of: #"^Swift Concurrency: \d+ of 10 topics done\.$"#, options: .regularExpression) != nil, "\(lines)")
        #expect(lines.filter { $0.contains("  swift-concurrency-") }.count == 10, "\(lines)")
        // A topic: its place in the curriculum.
        let topic = try e.run(["open", "engram://topic/swift-concurrency-actors"])
        #expect(topic.status == 0)
        #expect(topic.stdout.hasPrefix("Swift Concurrency, topic 3: Actors"), "\(topic.stdout)")

        // Session links start, pause and stop a learning session in the store.
        #expect(try json(e.run(["session", "status", "--json"])) is NSNull)
        let start = try e.run(["open", "engram://session/start?curriculum=swift-concurrency&topic=swift-concurrency-actors"])
        #expect(start.status == 0, "\(start.stderr)")
        #expect(start.stdout == "Started Swift Concurrency: Actors.\n")
        let running = try json(e.run(["session", "status", "--json"])) as? [String: Any] ?? [:]
        #expect(running["state"] as? String == "running")
        #expect(running["topicID"] as? String == "swift-concurrency-actors")
        #expect(try e.run(["open", "engram://session/pause"]).stdout.hasPrefix("Paused Swift Concurrency: Actors at "))
        #expect((try json(e.run(["session", "status", "--json"])) as? [String: Any])?["state"] as? String == "paused")
        #expect(try e.run(["open", "engram://session/stop"]).stdout.hasPrefix("Stopped Swift Concurrency: Actors at "))
        #expect(try json(e.run(["session", "status", "--json"])) is NSNull)
    }

    @Test func linksThatAreNotEngramsAreRefusedWithASentenceAndChangeAndStartNothing() throws {
        let e = EngramProcess()
        try e.importSamples()
        let base = URL(fileURLWithPath: e.configDir).deletingLastPathComponent().path
        let marker = base + "/pwned"
        // Programs a careless handler might start: each records that it ran.
        let bin = base + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        for name in ["xdg-open", "gio", "x-www-browser", "sensible-browser", "x-terminal-emulator", "sh", "bash", "touch", "curl", "python3"] {
            try writeScript("#!/bin/sh\necho \"\(name) $*\" >> '\(base)/launched'\n", to: bin + "/" + name)
        }
        var env = ["PATH": bin + ":/usr/bin:/bin"]
        env["BROWSER"] = bin + "/x-www-browser"
        let exportBefore = try e.run(["export"]).stdout
        let statsBefore = try e.run(["stats", "--json"]).stdout
        #expect(exportBefore.contains("\"id\":\"s165\""))

        let refused: [(link: String, says: String)] = [
            ("engram://memory/", "expected engram://memory/ID"),
            ("engram://memory/s165/extra", "expected engram://memory/ID"),
            ("engram://memory/s165#top", "#fragment"),
            ("engram://launch/s165", "unknown kind 'launch'"),
            ("engram://search?q=", "search needs ?q="),
            ("engram://search?q=a&q=b", "'q' is given twice"),
            ("engram://session/explode", "unknown session action 'explode'"),
            ("engram://user:pw@memory/s165", "user, password or port"),
            ("engram:memory/s165", "unknown kind ''"),
            ("javascript:alert(document.cookie)", "the scheme must be engram://"),
            ("file:///etc/passwd", "the scheme must be engram://"),
            ("https://example.com/engram", "the scheme must be engram://"),
            ("$(touch \(marker))", "spaces or control characters"),
            ("`touch \(marker)`", "spaces or control characters"),
            ("engram://memory/$(touch%20\(marker))", "expected engram://memory/ID"),
            (";touch\t\(marker)", "spaces or control characters"),
            ("--data-dir=/tmp", "the scheme must be engram://"),
            ("engram://memory/nope", "no memory with id 'nope'"),
        ]
        for (link, says) in refused {
            let out = try e.run(["open", "--", link], env: env)
            #expect(out.status != 0, "\(link) was followed: \(out.stdout)")
            #expect(out.stdout.isEmpty, "\(link) printed \(out.stdout)")
            let lines = out.stderr.split(separator: "\n")
            #expect(lines.count == 1 && out.stderr.hasPrefix("engram: ") && out.stderr.contains(says), "\(link): \(out.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: marker), "a link ran a command")
        #expect(!FileManager.default.fileExists(atPath: base + "/launched"),
                "a refused link started \((try? String(contentsOfFile: base + "/launched", encoding: .utf8)) ?? "")")
        #expect(try e.run(["export"]).stdout == exportBefore, "a refused link changed the collection")
        #expect(try e.run(["stats", "--json"]).stdout == statsBefore)
    }
}
