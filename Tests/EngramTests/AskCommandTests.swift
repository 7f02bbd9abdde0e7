import Foundation
import Testing

@Suite(.serialized) struct AskCommandTests {
    @Test func askRunsAPhraseAndANearMissSuggestsTheClosestIntent() throws {
        let e = EngramProcess()
        try e.importSamples()
        let found = try e.run(["ask", "what do I know about sourdough"])
        #expect(found.status == 0, "\(found.stderr)")
        #expect(found.stdout.hasPrefix("Found ") && found.stdout.contains("Summarize them, or show all?"))
        // A near miss is asked about, not run: the question, and how to answer it (no terminal here to prompt at).
        let miss = try e.run(["ask", "rememberr", "buy", "milk"])
        #expect(miss.status == 1)
        #expect(miss.stdout.hasPrefix("Did you mean store a memory? For example “remember {content}”."), "\(miss.stdout)")
        let nothing = try e.run(["ask", "purple", "elephant", "banana", "spaceship"])
        #expect(nothing.status == 1 && nothing.stderr.hasPrefix("engram: nothing matches “purple elephant banana spaceship”"), "\(nothing.stderr)")
        // A state-changing word that could mean several things asks, and the session is left alone.
        #expect(try e.run(["session", "start", "--curriculum", "swift-concurrency"]).status == 0)
        let stop = try e.run(["ask", "stop"])
        #expect(stop.status == 1 && stop.stdout.hasPrefix("Stop the session?\n  Stop the session: engram ask --intent StopSession"), "\(stop.stdout)")
        #expect(try e.run(["session", "status"]).stdout.contains("running"))
        // A capture with nothing to capture asks what, and stores nothing.
        let before = try e.run(["stats", "--json"]).stdout
        let empty = try e.run(["ask", "--json", "jot", "down"])
        #expect(empty.status == 1 && empty.stdout.contains("\"missing\":\"content\""), "\(empty.stdout)")
        #expect(try e.run(["stats", "--json"]).stdout == before)
    }

    @Test func listMarkdownIsTheReadmeTable() throws {
        let out = try EngramProcess().run(["ask", "--list", "--markdown"])
        #expect(out.status == 0)
        let readme = try String(contentsOfFile: EngramProcess.root + "/docs/intents-and-voice.md", encoding: .utf8)
        #expect(out.stdout.hasPrefix("| intent |") && readme.contains(out.stdout))
    }

    @Test func contextSleepHidesSearchUntilCleared() throws {
        let e = EngramProcess()
        try e.importSamples()
        #expect(try !e.searchIDs("sourdough").isEmpty)
        #expect(try e.run(["context", "set", "sleep"]).status == 0)
        #expect(try e.searchIDs("sourdough").isEmpty)
        #expect(try e.run(["context", "show"]).stdout.hasPrefix("Context: sleep"))
        #expect(try e.run(["context", "clear"]).status == 0)
        #expect(try !e.searchIDs("sourdough").isEmpty)
    }

    @Test func delayedAskIsKeptAndRunByRunDue() throws {
        let e = EngramProcess()
        try e.importSamples()
        let later = try e.run(["ask", "--in", "1s", "memory stats"])
        #expect(later.status == 0 && later.stdout.hasPrefix("I'll do memory stats at "))
        Thread.sleep(forTimeInterval: 1.2)
        let ran = try e.run(["ask", "--run-due"])
        #expect(ran.stdout.hasPrefix("You have 300 memories"))
        #expect(try e.run(["ask", "--run-due"]).stdout == "Nothing is due.\n")
    }
}
