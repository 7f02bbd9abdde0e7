import EngramCore
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
        // It names itself with an escape sequence (any local process can): engram shows the name, defused.
        holder.arguments = ["-c", "import ctypes, sys, time, xapian\nctypes.CDLL(None).prctl(15, b'\\x1b[2Jholder', 0, 0, 0)\n"
                            + "db = xapian.WritableDatabase(sys.argv[1], xapian.DB_OPEN)\nprint('held', flush=True)\ntime.sleep(60)", e.indexPath]
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
        // Searching says why the capture is missing instead of only "No results … Did you mean".
        let search = try e.run(["search", "quokka"])
        #expect(search.stdout.contains("No results for quokka."))
        #expect(search.stderr.contains("1 change is waiting to be indexed (another process holds the index); results may be missing it"),
                "\(search.stderr)")
        let status = try e.run(["index", "status"])
        #expect(status.stdout.contains("; 1 change waiting"), "\(status.stdout)")
        // Sweeping names the holder: not "the daemon", which is not running.
        let expire = try e.run(["index", "expire"])
        #expect(expire.status == 75)
        #expect(expire.stderr.contains("Another process (pid \(holder.processIdentifier), \u{FFFD}[2Jholder) holds the index, so nothing was swept"),
                "\(expire.stdout) \(expire.stderr)")
        #expect(!expire.stdout.contains("daemon") && !expire.stderr.contains("daemon"))
        #expect(!expire.stderr.contains("\u{1B}"), "a process name drove the terminal")
        let rebuild = try e.run(["index", "rebuild"])
        #expect(rebuild.status == 75 && rebuild.stderr.contains("another process (pid \(holder.processIdentifier), \u{FFFD}[2Jholder) holds the index"),
                "\(rebuild.stderr)")
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

    /// A vault of `groups` × `size` fresh notes; the notes of a group are near-identical, so captures link them.
    func writeVault(_ e: EngramProcess, groups: Int, size: Int) throws -> String {
        let vault = e.configDir + "/vault-\(groups)x\(size)"
        try FileManager.default.createDirectory(atPath: vault, withIntermediateDirectories: true)
        let subjects = ["sourdough levain rye", "kubernetes pod probe", "marathon tempo intervals", "subjunctive mood verbs",
                        "compost nitrogen layers", "violin bowing scales", "orchid watering roots", "bicycle chain lube"]
        for g in 0..<groups {
            let subject = subjects[g % subjects.count] + " topic\(g)"
            for i in 0..<size {
                try writeNote("# \(subject) \(i)\n\nNotes about \(subject): crashword, entry \(i).\n",
                              to: vault + String(format: "/g%03d-n%04d.md", g, i))
            }
        }
        return vault
    }

    /// What a recovered collection must look like: every note indexed once, nothing pending or left behind.
    func expectConverged(_ e: EngramProcess, documents: Int, links: Set<String>, _ point: String) throws {
        let delve = try EngramProcess.exec("/usr/bin/xapian-delve", [e.indexPath])
        #expect(delve.stdout.contains("number of documents = \(documents)"), "\(point): \(delve.stdout)")
        let status = try e.run(["index", "status", "--json"])
        #expect(status.stdout.contains("\"pending\":0"), "\(point): \(status.stdout)")
        #expect(try e.links() == links, "\(point): the automatic links differ from an uninterrupted run")
        #expect(try Store(path: e.storePath).pendingOutboxCount(after: 0) == 0, "\(point): the outbox was not emptied")
        let generations = try FileManager.default.contentsOfDirectory(atPath: e.indexPath + ".d")
        #expect(generations.count == 1, "\(point): index generations left behind: \(generations)")
    }

    /// Every point where the applier can die: the batch written but not committed, committed but not linked,
    /// linked but the outbox not pruned, pruned. The next run converges to what an uninterrupted import makes,
    /// automatic links included (they were lost for good when the process died between commit and links).
    @Test func everyCrashPointOfTheApplierRecoversWithTheSameLinks() throws {
        let config = "[index]\nbatch_size = 25\n"
        let control = EngramProcess()
        try config.write(toFile: control.configDir + "/config.toml", atomically: true, encoding: .utf8)
        let vault = try writeVault(control, groups: 6, size: 10)
        #expect(try control.run(["import", vault]).status == 0)
        let links = try control.links()
        #expect(links.count >= 60, "near-identical notes were not linked: \(links.count)")
        #expect(links.allSatisfy { $0.hasSuffix("(auto)") })
        for point in ["after-write:2", "after-commit:2", "after-autolink:2", "after-prune:2", "after-commit:3"] {
            let e = EngramProcess()
            try config.write(toFile: e.configDir + "/config.toml", atomically: true, encoding: .utf8)
            let crashed = try e.run(["import", vault], env: ["ENGRAM_TEST_CRASH_AT": point])
            #expect(crashed.signaled, "\(point): the crash hook did not fire")
            let recovered = try e.run(["search", "--json", "--limit", "100", "crashword"])
            #expect(recovered.status == 0, "\(point): \(recovered.stderr)")
            try expectConverged(e, documents: 60, links: links, point)
        }
    }

    /// A rebuild can die before or after swapping the new generation in; the index stays whole either way and the
    /// abandoned generation is removed by the next run.
    @Test func aRebuildThatDiesLeavesAWholeIndex() throws {
        let e = EngramProcess()
        let vault = try writeVault(e, groups: 2, size: 10)
        #expect(try e.run(["import", vault]).status == 0)
        let links = try e.links()
        let before = Set(try e.searchIDs("crashword"))
        #expect(before.count == 20)
        for point in ["rebuild-before-swap", "rebuild-after-swap"] {
            let crashed = try e.run(["index", "rebuild"], env: ["ENGRAM_TEST_CRASH_AT": point])
            #expect(crashed.signaled, "\(point): the crash hook did not fire")
            #expect(try e.run(["remember", "captured after the \(point) crash: crashword"]).status == 0)
            #expect(Set(try e.searchIDs("crashword")).isSuperset(of: before), "\(point)")
            try expectConverged(e, documents: 20 + (point == "rebuild-before-swap" ? 1 : 2), links: try e.links(), point)
            #expect(try e.links().isSuperset(of: links))
        }
    }

    /// The first import of thousands of notes builds the index whole (on every core) instead of applying them one
    /// by one (here from 200, so that the test stays quick); dying before or after its swap, or before its new notes
    /// are linked, the next run still indexes everything once and links the new notes as an uninterrupted run does.
    @Test func theFirstImportFastPathRecoversWithTheSameLinks() throws {
        let config = "[index]\nbatch_size = 100\n"
        let fast = ["ENGRAM_TEST_BULK_THRESHOLD": "200"]
        let control = EngramProcess(extraEnvironment: fast)
        try config.write(toFile: control.configDir + "/config.toml", atomically: true, encoding: .utf8)
        let vault = try writeVault(control, groups: 6, size: 40)
        let imported = try control.run(["import", vault])
        #expect(imported.status == 0, "\(imported.stderr)")
        let links = try control.links()
        #expect(links.count >= 200, "the fast path linked only \(links.count)")
        for point in ["rebuild-before-swap", "rebuild-after-swap", "after-autolink"] {
            let e = EngramProcess(extraEnvironment: fast)
            try config.write(toFile: e.configDir + "/config.toml", atomically: true, encoding: .utf8)
            let crashed = try e.run(["import", vault], env: ["ENGRAM_TEST_CRASH_AT": point])
            #expect(crashed.signaled, "\(point): the crash hook did not fire")
            #expect(try e.run(["search", "--json", "crashword"]).status == 0)
            try expectConverged(e, documents: 240, links: links, point)
        }
    }

    /// Auto-linking on the capture path: in a small collection where most notes share a subject, a near-identical
    /// note used to find nothing alike (words in most notes got no weight) and was never linked.
    @Test func aCaptureIsLinkedToTheNearIdenticalNotesOfASmallCollection() throws {
        let e = EngramProcess()
        var ids: [String] = []
        for i in 1...4 {
            let r = try e.run(["remember", "Sourdough starter needs feeding twice a day with rye flour \(i)"])
            ids.append(String(r.stdout.split(separator: " ")[1]))
        }
        try e.run(["remember", "Kubernetes pods restart when the liveness probe fails"])
        let r = try e.run(["remember", "Sourdough starter needs feeding twice daily with rye flour"])
        let id = String(r.stdout.split(separator: " ")[1])
        let store = try Store(path: e.storePath)
        let mine = try store.links(of: id)
        #expect(Set(mine.map { $0.other(than: id) }).isSubset(of: Set(ids)), "linked to \(mine.map { $0.other(than: id) })")
        #expect(mine.count == 3, "auto_link = 3 near-identical notes")
        #expect(mine.allSatisfy { $0.origin == .auto && $0.weight >= 0.35 })
        let show = try e.run(["show", "--peek", id])
        #expect(show.stdout.contains("(auto)"), "\(show.stdout)")
        let related = try e.run(["related", "--json", id])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(related.stdout.utf8)) as? [[String: Any]])
        #expect(rows.prefix(3).allSatisfy { $0["linked"] as? Bool == true && ids.contains($0["id"] as? String ?? "") })
        // The smallest collection: two notes.
        let two = EngramProcess()
        let first = try two.run(["remember", "Sourdough starter needs feeding twice a day with rye flour"])
        let second = try two.run(["remember", "Sourdough starter needs feeding twice daily with rye flour"])
        let (a, b) = (String(first.stdout.split(separator: " ")[1]), String(second.stdout.split(separator: " ")[1]))
        #expect(try two.links() == ["\(min(a, b))-\(max(a, b)) (auto)"])
        #expect(try two.run(["related", b]).stdout.contains("linked"))
    }
}
