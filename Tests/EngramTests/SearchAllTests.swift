import EngramCore
import Foundation
import Testing

/// `engram search --all`: memories that faded and were swept from the index are searched with exactly the
/// index's query semantics (fields, operators, phrases, stemming, spelling), ranked with the indexed ones.
@Suite(.serialized) struct SearchAllTests {
    /// A collection with four memories swept from the index, one faded but still indexed, and one fresh.
    func collection() throws -> EngramProcess {
        let e = EngramProcess()
        let old = "\"created\":\"2024-01-01T00:00:00Z\",\"lastReinforced\":\"2024-01-01T00:00:00Z\""
        let yesterday = ISO8601DateFormatter().string(from: Date.wallNow.addingTimeInterval(-86_400))
        try e.importLines([
            #"{"kind":"memory","id":"q1","type":"quote","tags":["bread"],"content":"Sourdough is patience made edible",\#(old)}"#,
            #"{"kind":"memory","id":"t1","type":"task","content":"Buy sourdough flour",\#(old)}"#,
            #"{"kind":"memory","id":"i1","type":"idea","content":"A sourdough starter app",\#(old)}"#,
            #"{"kind":"memory","id":"r1","type":"note","content":"Running shoes wear out after 800 km",\#(old)}"#,
            #"{"kind":"memory","id":"n1","type":"note","content":"Fresh sourdough bake today","created":"\#(yesterday)"}"#,
        ])
        let sweep = try e.run(["index", "expire"])
        #expect(sweep.stdout.contains("Swept 4 faded items"), "\(sweep.stdout) \(sweep.stderr)")
        // Faded too, but imported after the sweep: still in the index.
        try e.importLines([#"{"kind":"memory","id":"x1","type":"note","content":"Unswept sourdough crumb notes",\#(old)}"#])
        return e
    }

    @Test func sweptMemoriesMatchWithTheQuerySyntaxOfTheIndex() throws {
        let e = try collection()
        #expect(try e.searchIDs("sourdough") == ["n1"], "without --all only what has not faded")
        func all(_ query: String) throws -> Set<String> { Set(try e.searchIDs(query, extra: ["--all"])) }
        #expect(try all("type:quote sourdough") == ["q1"])
        #expect(try all("tag:bread") == ["q1"])
        #expect(try all("sourdough NOT flour") == ["q1", "i1", "n1", "x1"])
        #expect(try all("sourdough -flour") == ["q1", "i1", "n1", "x1"])
        #expect(try all("\"starter app\"") == ["i1"])
        // A phrase is a phrase: "app starter" matches nothing as written, and says so before listing memories with
        // some of its words.
        let phrase = try e.run(["search", "--all", "\"app starter\""])
        #expect(phrase.stderr.contains("Nothing matched your search as written"), "\(phrase.stdout) \(phrase.stderr)")
        #expect(try all("run") == ["r1"], "stemming: run finds running")
        #expect(try all("created:2024-01-01..2024-01-01 sourdough") == ["q1", "t1", "i1", "x1"])
        #expect(try all("ctx:work sourdough").isEmpty, "a field narrows on purpose: never widened")
        #expect(try all("type:note launcher sourdough").isEmpty)
        // Nothing has every word (a word written as syntax, as in Debian's synopsis "Golang .wav reader and writer"):
        // the memories with some of them, the one with most first, never an empty list.
        #expect(try e.searchIDs("unswept crumb .wav", extra: ["--all"]).first == "x1")
        #expect(try e.searchIDs("sourdough", extra: ["--all", "--kind", "curriculum"]).isEmpty)
    }

    @Test func eachFadedMemoryAppearsOnceMarkedFadedAndTheTemporaryIndexIsRemoved() throws {
        let e = try collection()
        let out = try e.run(["search", "--all", "--json", "sourdough"])
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
        let results = try #require(obj["results"] as? [[String: Any]])
        let ids = results.compactMap { $0["id"] as? String }
        #expect(ids.count == 5 && Set(ids) == ["q1", "t1", "i1", "n1", "x1"], "\(ids)")
        #expect(obj["total"] as? Int == 5)
        let faded = Set(results.filter { $0["faded"] as? Bool == true }.compactMap { $0["id"] as? String })
        #expect(faded == ["q1", "t1", "i1", "x1"])
        #expect(results.allSatisfy { ($0["relevance"] as? Double ?? 0) > 0 }, "swept hits are ranked, not appended")
        #expect(results.allSatisfy { !($0["snippet"] as? String ?? "").isEmpty })
        let text = try e.run(["search", "--all", "sourdough"])
        #expect(text.stdout.contains("faded"))
        #expect(text.stdout.contains("5 of about 5 results"))
        let scratch = e.dataDir + "/tmp"
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: scratch)) ?? []).isEmpty, "the temporary index was left behind")
        var st = stat()
        #expect(stat(scratch, &st) == 0 && st.st_mode & 0o777 == 0o700)
    }

    @Test func didYouMeanKnowsTheWordsOfSweptMemoriesOnlyWithAll() throws {
        let e = try collection()
        let plain = try e.run(["search", "--json", "patiense"])
        #expect(plain.status == 1)
        #expect(!plain.stdout.contains("\"suggestion\""), "a suggestion that finds nothing must not be offered: \(plain.stdout)")
        let all = try e.run(["search", "--all", "--json", "patiense"])
        #expect(all.stdout.contains("\"suggestion\":\"patience\""), "\(all.stdout)")
    }
}
