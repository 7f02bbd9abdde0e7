import EngramCore
import Foundation
import Testing

@Suite(.serialized) struct CommandTests {
    @Test func rememberThenSearchAndShow() throws {
        let e = EngramProcess()
        let r = try e.run(["remember", "--type", "idea", "--tag", "Search", "A launcher that searches memories with Xapian"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("Remembered "))
        let id = String(r.stdout.split(separator: " ")[1])
        #expect(try e.searchIDs("launcher") == [id])
        #expect(try e.searchIDs("tag:search") == [id])
        #expect(try e.searchIDs("type:note launcher").isEmpty)
        let show = try e.run(["show", id])
        #expect(show.status == 0)
        #expect(show.stdout.contains("A launcher that searches memories with Xapian"))
        #expect(show.stdout.contains("idea"))
        let text = try e.run(["search", "searches"])
        #expect(text.stdout.contains(id))
        #expect(text.stdout.contains("A launcher"))
    }

    @Test func stdinCaptureAndClearErrors() throws {
        let e = EngramProcess()
        let ok = try e.run(["remember", "--type", "quote"], stdin: Data("The obstacle is the way.\n".utf8))
        #expect(ok.status == 0)
        let bad = try e.run(["remember"], stdin: Data([0x66, 0x6F, 0xFF, 0x6F]))
        #expect(bad.status == 65)
        #expect(bad.stderr.hasPrefix("engram: standard input is not valid UTF-8"))
        #expect(bad.stderr.contains("offset 2"))
        let lossy = try e.run(["remember", "--lossy"], stdin: Data([0x66, 0x6F, 0xFF, 0x6F]))
        #expect(lossy.status == 0)
        let missing = try e.run(["show", "nosuchid"])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("no memory with id 'nosuchid'"))
        let empty = try e.run(["remember", "   "])
        #expect(empty.status == 65)
        let none = try e.run(["search", "zzzzqqqq"])
        #expect(none.status == 1)
        #expect(none.stdout.contains("No results"))
    }

    @Test func oddQueriesGiveResultsOrAClearErrorNeverACrash() throws {
        let e = EngramProcess()
        try e.run(["remember", "Quote: \"premature optimization\" is the root (of all evil)"])
        for q in ["\"unbalanced", "(((", "tag:", "tag: optimization", "AND", "NOT", "type:", "created:..", "created:2026-13-45..x",
                  "in:", "\"\"", "ctx:work OR", "optim", String(repeating: "x", count: 100_000), "*", "-", "+"] {
            let out = try e.run(["search", "--json", q])
            #expect(!out.signaled, "crashed on \(q.prefix(40))")
            #expect([0, 1, 65].contains(out.status), "status \(out.status) for \(q.prefix(40)): \(out.stderr)")
            if out.status != 65 {
                #expect((try? JSONSerialization.jsonObject(with: Data(out.stdout.utf8))) != nil, "invalid JSON for \(q.prefix(40))")
            } else {
                #expect(out.stderr.hasPrefix("engram: "))
            }
        }
        #expect(try e.searchIDs("\"premature optimization").count == 1)
    }

    @Test func aOneMegabyteNoteIsStoredAndSearchable() throws {
        let e = EngramProcess()
        var lines = ["Unusualword appears once."]
        var size = 0
        while size < 1_000_000 {
            lines.append("Filler sentence about gardening and tomatoes number \(lines.count).")
            size += lines[lines.count - 1].utf8.count + 1
        }
        let text = lines.joined(separator: "\n")
        let r = try e.run(["remember"], stdin: Data(text.utf8))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try e.searchIDs("unusualword").count == 1)
    }

    @Test func fadedMemoriesLeaveSearchButStayInShowAndExport() throws {
        let e = EngramProcess()
        let twoDaysAgo = ISODate.format(Date.wallNow.addingTimeInterval(-2 * 86_400))
        let lines = """
            {"kind":"memory","id":"old1","content":"Compost needs brown and green layers","created":"2024-01-01T00:00:00Z","lastReinforced":"2024-01-01T00:00:00Z"}
            {"kind":"memory","id":"new1","content":"Compost tea for tomatoes","created":"\(twoDaysAgo)"}
            """
        let dir = e.configDir + "/in.jsonl"
        try lines.write(toFile: dir, atomically: true, encoding: .utf8)
        #expect(try e.run(["import", dir]).status == 0)
        #expect(try e.searchIDs("compost") == ["new1"])
        #expect(Set(try e.searchIDs("compost", extra: ["--all"])) == ["new1", "old1"])
        let peek = try e.run(["show", "--peek", "old1"])
        #expect(peek.stdout.contains("brown and green"))
        #expect(peek.stdout.contains("faded"))
        #expect(try e.run(["export"]).stdout.contains("\"id\":\"old1\""))
        // Sweeping removes it from the index; the store keeps it.
        let sweep = try e.run(["index", "expire"])
        #expect(sweep.stdout.contains("Swept 1"))
        #expect(try e.run(["show", "--peek", "old1"]).status == 0)
        // Opening it strengthens it and brings it back into search.
        #expect(try e.run(["show", "old1"]).status == 0)
        #expect(Set(try e.searchIDs("compost")) == ["new1", "old1"])
    }

    @Test func exportImportRoundTripThroughTheCommand() throws {
        let a = EngramProcess()
        try a.importSamples()
        let first = try a.run(["export"])
        #expect(first.status == 0)
        #expect(first.stdout.split(separator: "\n").count > 300)
        let b = EngramProcess()
        let file = b.configDir + "/backup.jsonl"
        try first.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try b.run(["import", file]).status == 0)
        let second = try b.run(["export"])
        #expect(second.stdout == first.stdout)
        // Exported to a file, it is private.
        let out = a.configDir + "/private.jsonl"
        #expect(try a.run(["export", "--output", out]).status == 0)
        var st = stat()
        stat(out, &st)
        #expect(st.st_mode & 0o777 == 0o600)
    }

    @Test func statsAndIndexStatus() throws {
        let e = EngramProcess()
        try e.importSamples()
        let stats = try e.run(["stats", "--json"])
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
        #expect(obj["total"] as? Int == 300)
        #expect((obj["connections"] as? Int ?? 0) > 0)
        let status = try e.run(["index", "status", "--json"])
        let s = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        #expect(s["pending"] as? Int == 0)
        #expect((s["documents"] as? Int ?? 0) >= 300)
        let rebuilt = try e.run(["index", "rebuild"])
        #expect(rebuilt.status == 0)
        #expect(rebuilt.stdout.hasPrefix("Rebuilt the index"))
        #expect(try e.searchIDs("sourdough").count > 0)
    }

    /// make stress, part 6: a deleted index used to be created again empty (the outbox had been pruned), so search
    /// silently found nothing; a damaged stub failed every search. Both are rebuilt from the store, saying so.
    @Test func aDeletedOrDamagedIndexIsRebuiltFromTheStore() throws {
        let e = EngramProcess()
        try e.importSamples()
        let before = try e.searchIDs("sourdough")
        #expect(!before.isEmpty)
        let fm = FileManager.default
        try fm.removeItem(atPath: e.indexPath)
        try fm.removeItem(atPath: e.indexPath + ".d")
        let afterDelete = try e.run(["search", "--json", "--limit", "100", "sourdough"])
        #expect(afterDelete.status == 0, "\(afterDelete.stderr)")
        #expect(afterDelete.stderr.contains("rebuilding it from the store"), "\(afterDelete.stderr)")
        #expect(try e.searchIDs("sourdough") == before)
        try Data("garbage\u{1}\n".utf8).write(to: URL(fileURLWithPath: e.indexPath))
        let afterGarbage = try e.run(["search", "--json", "--limit", "100", "sourdough"])
        #expect(afterGarbage.status == 0, "\(afterGarbage.stderr)")
        #expect(afterGarbage.stderr.contains("rebuilding it from the store"), "\(afterGarbage.stderr)")
        #expect(try e.searchIDs("sourdough") == before)
        // A capture on a missing index keeps everything searchable too.
        try fm.removeItem(atPath: e.indexPath)
        try fm.removeItem(atPath: e.indexPath + ".d")
        #expect(try e.run(["remember", "The index came back with zymotic words"]).status == 0)
        #expect(try e.searchIDs("sourdough") == before)
        #expect(try e.searchIDs("zymotic").count == 1)
    }

    @Test func tagsPinsRelatedAndForget() throws {
        let e = EngramProcess()
        try e.importSamples()
        let id = try #require(try e.searchIDs("sourdough").first)
        #expect(try e.run(["tag", id, "Baking Day"]).stdout.contains("baking-day"))
        #expect(try e.searchIDs("tag:baking-day") == [id])
        #expect(try e.run(["untag", id, "baking-day"]).status == 0)
        #expect(try e.searchIDs("tag:baking-day").isEmpty)
        #expect(try e.run(["pin", id]).stdout.contains("Pinned"))
        let related = try e.run(["related", "--json", id])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(related.stdout.utf8)) as? [[String: Any]])
        #expect(!rows.isEmpty)
        #expect(try e.run(["forget", "--yes", id]).stdout.contains("Forgot"))
        #expect(!(try e.searchIDs("sourdough").contains(id)))
        #expect(try e.run(["show", id]).status == 66)
    }

    /// "Did you mean" corrects plain words only, and only offers what would find something.
    @Test func didYouMeanOnlyCorrectsPlainWordsIntoSomethingThatFinds() throws {
        let e = EngramProcess()
        try e.run(["remember", "Quote: \"premature optimization\" is the root (of all evil)"])
        try e.run(["remember", "Created a new backup schedule in 2025"])
        func suggestion(_ query: String) throws -> String? {
            let out = try e.run(["search", "--json", query])
            let obj = try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any]
            return obj?["suggestion"] as? String
        }
        #expect(try suggestion("optimizaton") == "optimization")
        #expect(try suggestion("premature optimizaton") == "premature optimization")
        #expect(try suggestion("created:2026-13-45..x") == nil, "a date is not a misspelt word")
        #expect(try suggestion("\"unbalanced quotes") == nil, "\"unbalanced notes would find nothing either")
        #expect(try suggestion("optimizaton zebra") == nil, "optimization zebra finds nothing")
        let text = try e.run(["search", "created:2026-13-45..x"])
        #expect(!text.stdout.contains("Did you mean"), "\(text.stdout)")
    }

    @Test func indexStatusSaysWhatTheItemsAreAndWhyMemoriesAreMissing() throws {
        let e = EngramProcess()
        let old = "\"created\":\"2024-01-01T00:00:00Z\",\"lastReinforced\":\"2024-01-01T00:00:00Z\""
        try e.importLines([#"{"kind":"memory","id":"gone","content":"An old thought",\#(old)}"#,
                           #"{"kind":"memory","id":"kept","content":"A pinned thought","pinned":true}"#])
        #expect(try e.run(["index", "expire"]).status == 0)
        #expect(try e.run(["import", EngramProcess.root + "/Samples/curricula/swift-concurrency.toml"]).status == 0)
        let out = try e.run(["index", "status"])
        let topics = try #require(out.stdout.firstMatch(of: /Items: (\d+) \(1 memory, 1 curriculum, (\d+) topics\)/), "\(out.stdout)")
        #expect(Int(topics.1) == 2 + Int(topics.2)!)
        #expect(out.stdout.contains("Store: 2 memories; not in the index: 1 faded and swept from it"), "\(out.stdout)")
        #expect(!out.stdout.contains("the rest faded or pending"))
        #expect(out.stdout.contains("up to date"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try e.run(["index", "status", "--json"]).stdout.utf8)) as? [String: Any])
        #expect(json["swept"] as? Int == 1 && json["curricula"] as? Int == 1 && json["unindexed"] as? Int == 0)
    }

    @Test func aSingleMarkdownNoteImportsAsItsFolderWould() throws {
        let e = EngramProcess()
        let vault = e.configDir + "/vault"
        try FileManager.default.createDirectory(atPath: vault, withIntermediateDirectories: true)
        try writeNote("---\ntags: [bread]\ntype: idea\n---\nOpen crumb needs high hydration\n", to: vault + "/Crumb.md")
        let one = try e.run(["import", vault + "/Crumb.md"])
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stdout.contains("Imported 1 memory"), "\(one.stdout)")
        let ids = try e.searchIDs("tag:bread type:idea hydration")
        #expect(ids.count == 1)
        // The same note through its folder updates it rather than adding a second one.
        #expect(try e.run(["import", vault]).status == 0)
        #expect(try e.searchIDs("hydration") == ids)
        try "not a note".write(toFile: vault + "/notes.txt", atomically: true, encoding: .utf8)
        let refused = try e.run(["import", vault + "/notes.txt"])
        #expect(refused.status == 65 && refused.stderr.contains("a .md note"), "\(refused.stderr)")
    }

    @Test func anArgumentThatIsNotUTF8IsRefusedLikeStandardInput() throws {
        let e = EngramProcess()
        // The shell passes the raw byte 0xE9 (Latin-1 é); Swift strings cannot hold it.
        let bad = try EngramProcess.exec("/bin/sh", ["-c", "exec \"$0\" remember \"$(printf 'caf\\351 au lait')\"", EngramProcess.binary],
                                         env: e.baseEnvironment)
        #expect(bad.status == 65, "\(bad.stdout) \(bad.stderr)")
        #expect(bad.stderr.hasPrefix("engram: argument 2 is not valid UTF-8 (bad byte at offset 3); nothing was saved."), "\(bad.stderr)")
        #expect(try e.run(["export"]).stdout.isEmpty, "nothing may be stored")
        let good = try e.run(["remember", "café au lait"])
        #expect(good.status == 0)
        #expect(try e.searchIDs("café").count == 1)
    }
}
