import Foundation
import Testing

/// Xapian's own tools reading the index Engram writes, and other processes holding it.
@Suite(.serialized) struct IndexToolTests {
    /// Unique ids in `quest`'s output (it prints each hit's document data, which starts with our ids).
    func questIDs(_ e: EngramProcess, _ query: String) throws -> Set<String> {
        let out = try EngramProcess.exec("/usr/bin/quest", ["-d", e.indexPath, "-m", "1000", "-s", "english", query])
        #expect(out.status == 0, "quest failed: \(out.stderr)")
        // quest prints each hit's document data: "engram-doc 1", "kind=memory", "id=…", ….
        var ids = Set<String>()
        var kind = ""
        for line in out.stdout.split(separator: "\n") {
            if line.hasPrefix("kind=") { kind = String(line.dropFirst(5)) }
            if line.hasPrefix("id="), kind == "memory" { ids.insert(String(line.dropFirst(3))) }
        }
        return ids
    }

    @Test func questFindsWhatEngramSearchFinds() throws {
        let e = EngramProcess()
        try e.importSamples()
        for word in ["sourdough", "xapian", "marathon", "subjunctive", "actor", "git"] {
            let ours = Set(try e.searchIDs(word, extra: ["--kind", "memory", "--all"]))
            let theirs = try questIDs(e, word)
            #expect(!ours.isEmpty, "no results for \(word)")
            #expect(ours == theirs, "\(word): engram \(ours.sorted()) vs quest \(theirs.sorted())")
        }
    }

    @Test func forgetLeavesNoTermOrSpellingBehind() throws {
        let e = EngramProcess()
        let r = try e.run(["remember", "The word zymurgical names the chemistry of fermentation"])
        let id = String(r.stdout.split(separator: " ")[1])
        try e.run(["remember", "Fermentation also makes kimchi sour"])
        let before = try EngramProcess.exec("/usr/bin/xapian-delve", ["-a", e.indexPath])
        #expect(before.stdout.contains("zymurgical"))
        let suggestion = try e.run(["search", "--json", "zymurgicol"])
        #expect(suggestion.stdout.contains("zymurgical"), "a misspelling should be offered the stored word")
        #expect(try e.run(["forget", "--yes", id]).status == 0)
        let after = try EngramProcess.exec("/usr/bin/xapian-delve", ["-a", e.indexPath])
        #expect(!after.stdout.contains("zymurgical"))
        #expect(!after.stdout.contains(id))
        let gone = try e.run(["search", "--json", "zymurgicol"])
        #expect(!gone.stdout.contains("zymurgical"), "the spelling data still remembers a forgotten word")
    }

    @Test func aCaptureSucceedsWhileAnotherProcessHoldsTheWriter() throws {
        let e = EngramProcess()
        try e.run(["remember", "first memory to create the index"])
        // Another process (as the daemon would) takes the Xapian writer and keeps it.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        holder.arguments = ["-c", "import sys, time, xapian\ndb = xapian.WritableDatabase(sys.argv[1], xapian.DB_OPEN)\nprint('held', flush=True)\ntime.sleep(60)", e.indexPath]
        let pipe = Pipe()
        holder.standardOutput = pipe
        try holder.run()
        defer { if holder.isRunning { kill(holder.processIdentifier, SIGKILL); holder.waitUntilExit() } }
        let ready = pipe.fileHandleForReading.availableData
        #expect(String(decoding: ready, as: UTF8.self).contains("held"))
        let r = try e.run(["remember", "captured while the writer was busy: quokka"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty, "a capture must not show an error: \(r.stderr)")
        #expect(try e.searchIDs("quokka").isEmpty, "not indexed while another process holds the writer")
        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
        #expect(try e.searchIDs("quokka").count == 1, "indexed once the writer is free")
    }

    @Test func theOutboxIsAppliedExactlyOnceAcrossCrashes() throws {
        let e = EngramProcess()
        try "[index]\nbatch_size = 25\nauto_link = 0\n".write(toFile: e.configDir + "/config.toml", atomically: true, encoding: .utf8)
        var lines = ""
        for i in 0..<120 { lines += #"{"kind":"memory","id":"c\#(i)","content":"crashword memory number \#(i)"}"# + "\n" }
        let file = e.configDir + "/in.jsonl"
        try lines.write(toFile: file, atomically: true, encoding: .utf8)
        // Die after writing the second batch, before its commit; then after the third commit, before pruning.
        let first = try e.run(["import", file], env: ["ENGRAM_TEST_CRASH_AT": "after-write:2"])
        #expect(first.signaled, "the crash hook did not fire")
        let third = try e.run(["search", "--json", "--limit", "200", "crashword"], env: ["ENGRAM_TEST_CRASH_AT": "after-commit:2"])
        #expect(third.signaled)
        // Recovery: the next ordinary run converges.
        let ids = try e.searchIDs("crashword")
        #expect(ids.count == 100, "limit is 100")
        let all = try e.run(["search", "--json", "--limit", "1000", "crashword"])
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [String: Any])
        let found = (obj["results"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(found.count == 120)
        #expect(Set(found).count == 120, "a memory was indexed twice")
        let delve = try EngramProcess.exec("/usr/bin/xapian-delve", [e.indexPath])
        #expect(delve.stdout.contains("number of documents = 120"), "\(delve.stdout)")
        let status = try e.run(["index", "status", "--json"])
        #expect(status.stdout.contains("\"pending\":0"))
    }
}
