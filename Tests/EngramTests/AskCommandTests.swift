import Foundation
import Testing

@Suite(.serialized) struct AskCommandTests {
    @Test func askRunsAPhraseAndANearMissSuggestsTheClosestIntent() throws {
        let e = EngramProcess()
        try e.importSamples()
        let found = try e.run(["ask", "what do I know about sourdough"])
        #expect(found.status == 0, "\(found.stderr)")
        #expect(found.stdout.hasPrefix("Found ") && found.stdout.contains("Summarize them, or show all?"))
        let miss = try e.run(["ask", "rememberr", "buy", "milk"])
        #expect(miss.status == 1)
        #expect(miss.stderr == "engram: nothing matches “rememberr buy milk”. Closest: StoreMemory — try “remember {content}”; `engram ask --list` shows every phrase\n")
    }

    @Test func listMarkdownIsTheReadmeTable() throws {
        let out = try EngramProcess().run(["ask", "--list", "--markdown"])
        #expect(out.status == 0)
        let readme = try String(contentsOfFile: EngramProcess.root + "/README.md", encoding: .utf8)
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
