import EngramCore
import Foundation
import EngramApp
import Indexer
import Meaning
import Testing

/// Meaning search: vectors kept like the index (outbox-driven, crash-safe, forgotten with the memory, made again for
/// a new model), the hybrid ranking, and words alone when the model is off.
@Suite("Meaning search")
struct MeaningTests {
    let dir = TemporaryDirectory()

    /// The repository's `.build/model`, where `make model` (part of `make test`) installs the real model.
    static let modelDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/model").path

    func library(config: String = "") throws -> Library {
        let paths = EngramPaths(dataDirectory: dir.path + "/data", configDirectory: dir.path + "/config",
                                runtimeDirectory: dir.path + "/run")
        try FileManager.default.createDirectory(atPath: dir.path + "/config", withIntermediateDirectories: true)
        try config.write(toFile: paths.configPath, atomically: true, encoding: .utf8)
        return try Library(paths: paths)
    }

    static let notes = [
        ("m1", "First whole wheat loaf came out gummy: cut too early and under-proofed."),
        ("m2", "Renew the car insurance before the end of March."),
        ("m3", "Book a dentist appointment for the cleaning."),
        ("m4", "Kubernetes pods restart when the liveness probe fails too often."),
        ("m5", "Call grandma on Sunday afternoon."),
    ]

    func store(_ lib: Library, _ notes: [(String, String)] = notes) throws {
        let now = lib.store.clock()
        try lib.store.upsertMemories(notes.map { Memory(id: $0.0, content: $0.1, type: .note, tags: [], created: now, pinned: true) })
    }

    @Test func everyItemGetsAVectorAndEditsAndForgetsFollowTheOutbox() throws {
        let lib = try library()
        try store(lib)
        let twin = WordHashEmbedder()
        let first = try MeaningIndexer(store: lib.store, embedder: twin).run()
        #expect(first.embedded == 5 && first.reconciled)
        #expect(try lib.store.vectorCount() == 5)
        #expect(try lib.store.vectorMark() == lib.store.latestOutboxSeq())

        // Nothing new: nothing embedded again.
        #expect(try MeaningIndexer(store: lib.store, embedder: twin).run().embedded == 0)
        #expect(twin.embedded == 5)

        // An edit re-embeds that memory only; re-saving the same text embeds nothing.
        var m2 = try #require(try lib.store.memory(id: "m2"))
        m2.content = "Renew the car insurance before the end of April."
        try lib.store.upsertMemories([m2, try #require(try lib.store.memory(id: "m3"))])
        let edit = try MeaningIndexer(store: lib.store, embedder: twin).run()
        #expect(edit.embedded == 1 && !edit.reconciled, "\(edit)")

        // Forget deletes the vector in the same transaction as the memory, before any pass.
        _ = try lib.store.forget(id: "m4")
        #expect(try !lib.store.hasVector(.memory, "m4"))
        let after = try MeaningIndexer(store: lib.store, embedder: twin).run()
        #expect(after.embedded == 0)
        #expect(try lib.store.vectorCount() == 4)
        #expect(try lib.store.allVectors().allSatisfy { $0.data.count == 4 + twin.dimension })
    }

    /// The vectors a search holds in memory follow every save, edit and forget while reading only what changed.
    @Test func vectorsInMemoryFollowTheStoreReadingOnlyWhatChanged() throws {
        let lib = try library()
        try store(lib)
        let twin = WordHashEmbedder()
        try MeaningIndexer(store: lib.store, embedder: twin).run()
        let cache = VectorCache(store: lib.store, dimension: twin.dimension)
        func matchesAFreshLoad(_ why: Comment) throws {
            let held = try cache.current()
            let fresh = VectorIndex(try lib.store.allVectors(), dimension: twin.dimension)
            #expect(Set(held.keys) == Set(fresh.keys), why)
            for note in Self.notes.map(\.1) + ["grandma", "insurance in April"] {
                let q = try twin.embed([note], as: .query)[0]
                #expect(held.nearest(q, k: 3).map(\.key) == fresh.nearest(q, k: 3).map(\.key), why)
            }
        }
        try matchesAFreshLoad("first load")
        let loaded = try cache.current()

        // New notes and an edit: read as changes, into the same index (an edited note keeps its row).
        try store(lib, [("m6", "Water the tomatoes every morning in July."), ("m7", "Grandma's birthday is on 3 May.")])
        var m2 = try #require(try lib.store.memory(id: "m2"))
        m2.content = "Renew the car insurance before the end of April."
        try lib.store.upsertMemories([m2])
        try MeaningIndexer(store: lib.store, embedder: twin).run()
        #expect(try lib.store.vectors(changedAfter: 1).vectors.map(\.itemID).sorted() == ["m2", "m6", "m7"])
        #expect(try cache.current() === loaded)
        #expect(loaded.count == 7)
        try matchesAFreshLoad("after new notes and an edit")

        // A forget deletes a vector outside any save: everything is read again, and the forgotten note is gone.
        _ = try lib.store.forget(id: "m5")
        #expect(try cache.current() !== loaded)
        #expect(try !cache.current().keys.contains("memory:m5"))
        try matchesAFreshLoad("after a forget")
    }

    @Test func theOutboxIsKeptUntilEmbeddedWhileMeaningIsOn() throws {
        let lib = try library()
        try store(lib)
        let latest = try lib.store.latestOutboxSeq()
        try lib.store.recordAutoLinks([], through: latest)  // the index and its links are done with every entry
        try lib.store.saveVectors([], deleting: [], through: 2, model: "x")
        try lib.store.pruneOutbox(through: latest)
        #expect(try lib.store.pendingOutboxCount(after: 2) == Int(latest) - 2, "entries not embedded yet were pruned")
        try lib.store.releaseVectorMark()
        try lib.store.pruneOutbox(through: latest)
        #expect(try lib.store.pendingOutboxCount(after: 0) == 0)
    }

    @Test func aDifferentModelEmbedsEverythingAgain() throws {
        let lib = try library()
        try store(lib)
        try MeaningIndexer(store: lib.store, embedder: WordHashEmbedder(modelID: "a")).run()
        let again = try MeaningIndexer(store: lib.store, embedder: WordHashEmbedder(modelID: "b")).run()
        #expect(again.embedded == 5 && again.reconciled)
        #expect(try lib.store.vectorModel() == "b")
    }

    struct Crash: Error {}

    /// A crash after a saved batch: the next pass embeds only what was not saved, and the vectors are those of a run
    /// that never crashed.
    @Test func aCrashBetweenBatchesLosesNothingAndRepeatsNoSavedWork() throws {
        let lib = try library()
        try store(lib)
        var crashing = MeaningIndexer(store: lib.store, embedder: WordHashEmbedder())
        crashing.batchSize = 2
        var saves = 0
        crashing.crashPoint = { point in
            if point == "embed-after-save" { saves += 1; if saves == 2 { throw Crash() } }
        }
        #expect(throws: Crash.self) { try crashing.run() }
        #expect(try lib.store.vectorCount() == 4)
        let resumed = try MeaningIndexer(store: lib.store, embedder: WordHashEmbedder()).run()
        #expect(resumed.embedded == 1, "\(resumed)")

        let clean = TemporaryDirectory()
        let other = try Library(paths: EngramPaths(dataDirectory: clean.path + "/data", configDirectory: clean.path + "/c",
                                                   runtimeDirectory: clean.path + "/r"))
        try store(other)
        try MeaningIndexer(store: other.store, embedder: WordHashEmbedder()).run()
        let a = try lib.store.allVectors().sorted { $0.itemID < $1.itemID }
        let b = try other.store.allVectors().sorted { $0.itemID < $1.itemID }
        #expect(a == b)
    }

    /// A first pass embeds the most wanted first: pinned memories, then the newest or most recently used. Cut after
    /// its first batch of two, those two have vectors and the old ones wait.
    @Test func aFirstPassEmbedsPinnedAndRecentMemoriesFirst() throws {
        let lib = try library()
        let now = lib.store.clock()
        func day(_ n: Double) -> Date { now.addingTimeInterval(-n * 86_400) }
        try lib.store.upsertMemories([
            Memory(id: "old", content: "An old note nobody used.", type: .note, tags: [], created: day(400), updated: day(400),
                   lastReinforced: day(400)),
            Memory(id: "older", content: "An older note.", type: .note, tags: [], created: day(500), updated: day(500),
                   lastReinforced: day(500)),
            Memory(id: "used", content: "An old note used yesterday.", type: .note, tags: [], created: day(300),
                   updated: day(300), lastReinforced: day(1)),
            Memory(id: "pinned", content: "A pinned note from long ago.", type: .note, tags: [], created: day(900),
                   updated: day(900), lastReinforced: day(900), pinned: true),
            Memory(id: "mid", content: "A note from last month.", type: .note, tags: [], created: day(30), updated: day(30),
                   lastReinforced: day(30)),
        ])
        var cut = MeaningIndexer(store: lib.store, embedder: WordHashEmbedder())
        cut.batchSize = 2
        cut.crashPoint = { if $0 == "embed-after-save" { throw Crash() } }
        #expect(throws: Crash.self) { try cut.run() }
        let first = Set(try lib.store.allVectors().map(\.itemID))
        #expect(first == ["pinned", "used"], "embedded first: \(first)")
        try MeaningIndexer(store: lib.store, embedder: WordHashEmbedder()).run()
        #expect(try lib.store.vectorCount() == 5)
    }

    @Test func withMeaningOffSearchIsWordsAndStatusSaysWhy() throws {
        let lib = try library(config: "[search]\nsemantic = false\n")
        try store(lib)
        #expect(lib.meaningSearch() == nil)
        let status = try lib.meaningStatus()
        #expect(!status.on && status.reason?.contains("semantic = false") == true)
        #expect(try lib.search(SearchRequest(query: "insurance")).hits.map(\.id) == ["m2"])
        #expect(try lib.embedPending() == nil)

        let missing = try library(config: "[search]\nmodel_dir = \"\(dir.path)/nowhere\"\n")
        #expect(try missing.meaningStatus().reason?.contains("not installed") == true)
        let broken = dir.path + "/broken"
        try FileManager.default.createDirectory(atPath: broken, withIntermediateDirectories: true)
        try Data("not an engine".utf8).write(to: URL(fileURLWithPath: broken + "/libe5.so"))
        let damaged = try library(config: "[search]\nmodel_dir = \"\(broken)\"\n")
        #expect(try damaged.meaningStatus().reason?.contains("cannot be loaded") == true || damaged.meaningStatus().reason?.contains("missing") == true)
        #expect(try damaged.search(SearchRequest(query: "dentist")).hits.map(\.id) == ["m3"])
    }

    @Test func naturalQuestionsRankInsteadOfRequiringEveryWord() throws {
        let lib = try library(config: "[search]\nsemantic = false\n")
        try store(lib)
        // Every word required would find nothing; ranked, the loaf is first.
        #expect(try lib.search(SearchRequest(query: "how do I make my bread less gummy")).hits.first?.id == "m1")
        // Two words typed stay narrowing; syntax stays exact.
        #expect(try lib.search(SearchRequest(query: "gummy insurance")).hits.isEmpty)
        #expect(try lib.search(SearchRequest(query: "gummy OR dentist")).hits.count == 2)
        #expect(try lib.search(SearchRequest(query: "\"whole wheat loaf\" insurance car")).hits.isEmpty)
        #expect(QueryShape.isNatural("what do I know about bread"))
        #expect(QueryShape.isNatural("command-line tool for C++ projects (transitional package)"), "ordinary punctuation")
        #expect(QueryShape.isNatural("FFmpeg library with extra (de)muxers - Python 3 version"))
        #expect(QueryShape.isNatural("provides modules recommended for Task::Kensho::WebCrawling"))
        #expect(QueryShape.plainWords("tag:baking loaf") == nil && QueryShape.plainWords("loaf -gummy") == nil
                && QueryShape.plainWords("\"whole wheat\" loaf") == nil && QueryShape.plainWords("bread OR loaf") == nil
                && QueryShape.plainWords("sourd* loaf") == nil)
        // Quotes around one word are ordinary writing; around several, a phrase; unclosed, syntax.
        #expect(QueryShape.isNatural("GNU R 'Pandoc' writer"))
        #expect(QueryShape.isNatural("wayland server bindings - feature \"parking_lot\""))
        #expect(QueryShape.plainWords("\"whole wheat loaf") == nil && QueryShape.plainWords("loaf \"gummy") == nil)
        let quoted = try lib.search(SearchRequest(query: "bread 'gummy' loaf texture"))
        #expect(quoted.hits.first?.id == "m1" && quoted.notice == nil, "\(quoted.hits.map(\.id)) \(quoted.notice ?? "")")
        #expect(!QueryShape.isNatural("sourdough schedule"))
        #expect(!QueryShape.isNatural("tag:baking loaf gummy cut"))
        #expect(QueryShape.wantsMeaning("sticky bread", partial: false) == true)
        #expect(QueryShape.wantsMeaning("sticky bread", partial: true) == false, "two typed words narrow by words")
        #expect(QueryShape.wantsMeaning("sourd", partial: true) == false)
        #expect(QueryShape.wantsMeaning("sourdough sched", partial: true) == false, "typed keywords narrow by words")
        #expect(QueryShape.meaningText("why does my container keep rebooting", partial: true) == "why does my container keep rebooting")
        #expect(QueryShape.meaningText("why does my container keep reb", partial: true) == "why does my container keep")
    }

    /// The real model (installed by `make model`): a question sharing no word with the memory finds it, marked as
    /// found by meaning, and fused results keep word matches.
    @Test func theRealModelFindsByMeaning() throws {
        guard FileManager.default.fileExists(atPath: Self.modelDirectory + "/libe5.so") else {
            Issue.record("the meaning model is not installed in \(Self.modelDirectory): run `make model` (make test does)")
            return
        }
        let lib = try library(config: "[search]\nmodel_dir = \"\(Self.modelDirectory)\"\n")
        try store(lib)
        _ = try lib.applyPending()
        let report = try #require(try lib.embedPending())
        #expect(report.embedded == 5)
        #expect(try lib.meaningStatus().on && lib.meaningStatus().waiting == 0)
        let found = try lib.search(SearchRequest(query: "my homemade bread was sticky inside"))
        #expect(found.hits.first?.id == "m1", "\(found.hits.map(\.id))")
        #expect(found.hits.first?.byMeaning == true)
        let container = try lib.search(SearchRequest(query: "why does my container keep rebooting"))
        #expect(container.hits.first?.id == "m4", "\(container.hits.map(\.id))")
        // A word match is still first for its word, and not marked.
        let words = try lib.search(SearchRequest(query: "dentist appointment"))
        #expect(words.hits.first?.id == "m3" && words.hits.first?.byMeaning == false)
        // related: by meaning too (the loaf and a paraphrase of it share no word).
        // A new capture nearly the same in meaning as an earlier one is linked to it automatically.
        let first = try lib.store.remember(MemoryDraft(content: "The kids' dentist check-up is on the 14th at 3 pm."))
        let second = try lib.store.remember(MemoryDraft(content: "Children's dental appointment: the fourteenth, 15:00."))
        _ = try lib.applyPending()
        try lib.embedPending()
        let links = try lib.store.links(of: second.memory.id)
        #expect(links.contains { $0.other(than: second.memory.id) == first.memory.id && $0.origin == .auto }, "\(links)")
        let unrelated = try lib.store.links(of: "m5")
        #expect(unrelated.isEmpty, "a note linked by meaning to nothing like it: \(unrelated)")
        // A subject no memory mentions, or nonsense, finds nothing: every neighbour is under the absolute floor
        // (before it, the five notes were all listed "by meaning", the nearest first).
        for absent in ["axolotl", "what do axolotls eat in captivity", "medieval castle moat construction"] {
            let none = try lib.search(SearchRequest(query: absent))
            #expect(none.hits.isEmpty, "\(absent): \(none.hits.map { "\($0.id) \($0.byMeaning)" })")
        }
        // A forgotten memory is found by meaning no more.
        _ = try lib.store.forget(id: "m4")
        _ = try lib.applyPending()
        #expect(try !lib.search(SearchRequest(query: "why does my container keep rebooting")).hits.contains { $0.id == "m4" })
    }

    /// Texts embedded together (the background pass) get the vectors each gets alone: the batch's texts never see
    /// each other, and every vector lands in its own text's place, short and long texts mixed.
    @Test func aBatchEmbedsEachTextAsItWouldAlone() throws {
        guard FileManager.default.fileExists(atPath: Self.modelDirectory + "/libe5.so") else {
            Issue.record("the meaning model is not installed in \(Self.modelDirectory): run `make model` (make test does)")
            return
        }
        let e5 = try E5Embedder(enginePath: Self.modelDirectory + "/libe5.so", modelPath: Self.modelDirectory + "/e5-small-q4.bin")
        let texts = ["Kubernetes pods restart when the liveness probe fails too often.",
                     String(repeating: "A long imported page about sourdough hydration and the levain's schedule. ", count: 40),
                     "dentist", "Grandma's lentil soup: cumin, lemon, lots of garlic.", "Ж ü 日本語 ✓"]
        let alone = try texts.map { try e5.embed([$0], as: .passage)[0] }
        let together = try e5.embed(texts, as: .passage)
        #expect(together.count == texts.count)
        for (i, (a, b)) in zip(alone, together).enumerated() {
            let cosine = zip(a, b).reduce(Float(0)) { $0 + $1.0 * $1.1 }
            #expect(cosine > 0.9999, "text \(i): cosine \(cosine) between its vector alone and in the batch")
        }
        // And the texts stay apart: the soup is not the pods.
        let cross = zip(together[0], together[3]).reduce(Float(0)) { $0 + $1.0 * $1.1 }
        #expect(cross < 0.95)
    }

    /// A long text is cut into passages the model can read whole: each at most 2 KB, on word boundaries, overlapping,
    /// later ones led by the title, every word of the text in some passage; a text that fits is its own passage.
    @Test func aLongTextIsCutIntoOverlappingPassagesThatHoldAllOfIt() throws {
        #expect(Passages.split("Short note.") == ["Short note."])
        let fits = String(repeating: "x", count: Passages.maxBytes)
        #expect(Passages.split(fits) == [fits])
        var body = "Sourdough handbook\n"
        for i in 0..<400 { body += "Paragraph \(i) says the levain peaks at día \(i) — naïve bakers wait. " + (i % 7 == 0 ? "\n" : "") }
        let passages = Passages.split(body)
        let words = Set(body.split(whereSeparator: \.isWhitespace).map(String.init))
        #expect(passages.count > 10)
        #expect(passages[0].hasPrefix("Sourdough handbook\n"))
        for (i, p) in passages.enumerated() {
            #expect(p.utf8.count <= Passages.maxBytes, "passage \(i) is \(p.utf8.count) bytes")
            // Later passages: the title, then a whole word of the text (never half of one).
            let first = p.dropFirst("Sourdough handbook\n".count).split(separator: " ").first.map(String.init) ?? ""
            #expect(p.hasPrefix("Sourdough handbook\n") && (i == 0 || words.contains(first)), "passage \(i) starts: \(p.prefix(40))")
            #expect(p.unicodeScalars.allSatisfy { $0 != "\u{FFFD}" }, "passage \(i) cut a character")
        }
        for i in 0..<400 { #expect(passages.contains { $0.contains("Paragraph \(i) says") }, "paragraph \(i) is in no passage") }
        // Neighbours overlap: the end of one passage is the start of the next.
        let tail = String(passages[1].suffix(60))
        #expect(passages[2].contains(tail))
        // A Markdown heading in the middle of a page starts a passage of its own.
        let sections = "Notes\n" + String(repeating: "Garden line about tomatoes and beans.\n", count: 60) + "## The car\nWinter tyres in November.\n\n"
            + String(repeating: "Garden line about lettuce and weeds.\n", count: 60)
        #expect(Passages.split(sections).contains { $0.hasPrefix("Notes\n## The car\nWinter tyres") }, "\(Passages.split(sections).map { $0.prefix(30) })")
        // A text of hundreds of screens makes at most maxPassages.
        #expect(Passages.split(String(repeating: body, count: 80)).count == Passages.maxPassages)
    }

    /// A long note is found by meaning for what its middle says: each passage has a vector of its own, stored with
    /// the note's (forgetting it deletes them all), and the note is listed once, as near as its nearest passage.
    @Test func aLongNoteIsFoundForWhatItsMiddleSays() throws {
        guard FileManager.default.fileExists(atPath: Self.modelDirectory + "/libe5.so") else {
            Issue.record("the meaning model is not installed in \(Self.modelDirectory): run `make model` (make test does)")
            return
        }
        let lib = try library(config: "[search]\nmodel_dir = \"\(Self.modelDirectory)\"\n")
        // A Markdown page of many screens, imported: the car's section is in its middle, 3 KB in.
        var page = "Household notes, imported from my old wiki\n\n## The garden\n"
        for i in 0..<30 { page += "Week \(i): watered the tomatoes, tied the beans to their canes and pulled the weeds between the rows of lettuce.\n" }
        page += """

            ## The car
            The winter tyres go on in the first week of November, before the first frost.
            The summer set is stored at the garage on Rua Nova; they charge per season.
            Tread depth was 5 mm last spring, so the winter set has one more season in it.
            Oil and filter every 15,000 km; the last service was at 82,000 km.

            ## The garden in autumn

            """
        for i in 30..<60 { page += "Week \(i): watered the tomatoes, tied the beans to their canes and pulled the weeds between the rows of lettuce.\n" }
        try store(lib, Self.notes + [("long", page)])
        _ = try lib.applyPending()
        try lib.embedPending()
        let stored = try #require(try lib.store.vector(.memory, "long"))
        let passages = Passages.split(MeaningIndexer.text(of: try #require(try lib.store.memory(id: "long"))))
        #expect(stored.data.count == passages.count * (4 + 384), "\(passages.count) passages")
        let found = try lib.search(SearchRequest(query: "what month do cold-season tires get mounted"))
        #expect(found.hits.first?.id == "long", "\(found.hits.map(\.id))")
        #expect(found.hits.filter { $0.id == "long" }.count == 1)
        // Its opening still answers for what the opening says.
        let garden = try lib.search(SearchRequest(query: "looking after my vegetable plot"))
        #expect(garden.hits.first?.id == "long", "\(garden.hits.map(\.id))")
        _ = try lib.store.forget(id: "long")
        #expect(try !lib.store.hasVector(.memory, "long"))
        #expect(try lib.meaningSearch()?.vectors().rowCount == 5)
    }

    /// A fresh import is searchable by meaning before the background pass reaches it: the best word hits without a
    /// vector are embedded as the question is asked (and kept in memory only), so meaning ranks them.
    @Test func freshWordHitsAreRankedByMeaningBeforeTheyHaveVectors() throws {
        guard FileManager.default.fileExists(atPath: Self.modelDirectory + "/libe5.so") else {
            Issue.record("the meaning model is not installed in \(Self.modelDirectory): run `make model` (make test does)")
            return
        }
        let lib = try library(config: "[search]\nmodel_dir = \"\(Self.modelDirectory)\"\n")
        try store(lib, [
            ("k1", "Kubernetes cluster upgrade is planned for Friday."),
            ("k2", "Kubernetes pods restart when the liveness probe fails too often; raise its timeout."),
            ("k3", "Kubernetes meetup: slides are on the shared drive."),
        ])
        _ = try lib.applyPending()
        #expect(try lib.store.vectorCount() == 0)
        let found = try lib.search(SearchRequest(query: "why do my kubernetes containers keep rebooting"), applyFirst: false)
        #expect(found.hits.first?.id == "k2", "\(found.hits.map(\.id))")
        #expect(try lib.store.vectorCount() == 0, "vectors made for a query are not saved: the background pass owns them")
    }

    /// A big change (an import into a collection that has vectors) is embedded most wanted first, as a first pass is,
    /// and new captures among it are still linked.
    @Test func aBigImportIsEmbeddedMostWantedFirst() throws {
        let lib = try library()
        try store(lib)
        try MeaningIndexer(store: lib.store, embedder: WordHashEmbedder()).run()
        let now = lib.store.clock()
        var imported = (0..<(MeaningIndexer.priorityPassThreshold + 20)).map { i in
            Memory(id: String(format: "imp%04d", i), content: "Imported note number \(i) about old things.", type: .note, tags: [],
                   created: now.addingTimeInterval(-400 * 86_400), updated: now.addingTimeInterval(-400 * 86_400),
                   lastReinforced: now.addingTimeInterval(-400 * 86_400))
        }
        imported[300].pinned = true
        imported[7].lastReinforced = now.addingTimeInterval(-3600)
        try lib.store.upsertMemories(imported)
        var cut = MeaningIndexer(store: lib.store, embedder: WordHashEmbedder())
        cut.batchSize = 2
        cut.crashPoint = { if $0 == "embed-after-save" { throw Crash() } }
        #expect(throws: Crash.self) { try cut.run() }
        let first = Set(try lib.store.allVectors().map(\.itemID)).subtracting(Self.notes.map(\.0))
        #expect(first == ["imp0300", "imp0007"], "embedded first: \(first.sorted())")
        let rest = try MeaningIndexer(store: lib.store, embedder: WordHashEmbedder()).run()
        #expect(rest.reconciled && rest.embedded == imported.count - 2, "\(rest)")
        #expect(try lib.store.vectorMark() == lib.store.latestOutboxSeq())
    }

    /// Past a question's deadline on a busy machine the daemon searches without embedding: the question typed so far
    /// stands in (whole words only), else meaning sits the search out; nothing is embedded on the search's path.
    @Test func aQuestionTypedSoFarStandsInWhenEmbeddingMustWait() throws {
        let lib = try library()
        try store(lib)
        let twin = WordHashEmbedder()
        let meaning = MeaningSearch(store: lib.store, embedder: twin)
        let typed = try #require(try meaning.queryVector("why does my container keep"))
        meaning.embedsQuestions = false
        #expect(try meaning.queryVector("why does my container keep rebooting") == typed)
        #expect(try meaning.queryVector("why does my container keeps") == nil, "not a whole-word extension")
        #expect(try meaning.queryVector("call grandma on sunday") == nil)
        #expect(twin.embedded == 1)
        meaning.embedsQuestions = true
        #expect(try meaning.queryVector("call grandma on sunday") != nil)
        #expect(twin.embedded == 2)
    }
}
