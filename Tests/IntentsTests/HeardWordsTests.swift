import EngramApp
import EngramCore
import Foundation
import Indexer
@testable import Intents
import Testing

/// Words a recogniser misheard, put right against what Engram knows, and understood as typed words are.
@Suite(.serialized) struct HeardWordsTests {
    func words(_ lib: TestLibrary, everyday: Set<String> = []) throws -> HeardWords {
        HeardWords(matcher: try lib.runner().matcher(), store: lib.library.store,
                   spelling: try IndexReader.open(at: lib.paths.indexPath).spellingWords(), everyday: everyday)
    }

    @Test func aMishearingOfACommandWordIsPutRight() throws {
        let lib = try TestLibrary()
        let w = try words(lib)
        let (text, changes) = w.corrected("Pause my passion.")
        #expect(text == "Pause my session.")
        #expect(changes == [HeardWords.Correction(heard: "passion", became: "session")])
    }

    @Test func aMishearingOfTheSubjectBecomesAWordFromTheNotes() throws {
        let lib = try TestLibrary()
        #expect(try words(lib).corrected("search for sourdo").text == "search for sourdough")
    }

    @Test func knownWordsShortWordsAndNumbersStayAsHeard() throws {
        let lib = try TestLibrary()
        let w = try words(lib)
        for said in ["what do I know about git rebase", "show 5 memories", "remember to call the plumber at 7"] {
            let (text, changes) = w.corrected(said)
            #expect(changes.isEmpty, "\(said) → \(text)")
        }
    }

    @Test func aWordLikeTwoKnownWordsIsLeftAlone() {
        let w = HeardWords(commandWords: ["pause"], otherWords: ["cart", "card"])
        #expect(w.corrected("show me the cark").corrections.isEmpty)
        let one = HeardWords(commandWords: ["pause"], otherWords: ["cart"])
        #expect(one.corrected("show me the cark").text == "show me the cart")
        // A word of requests comes before a word of the notes that sounds nearer.
        let both = HeardWords(commandWords: ["pause my session"], otherWords: ["bastion"])
        #expect(both.corrected("pause my passion").text == "pause my session")
        #expect(both.corrected("search for bastion").corrections.isEmpty)
    }

    @Test func aCorrectedChangeRunsOnlyWhenClearAndForgetNeverDoes() throws {
        let lib = try TestLibrary()
        let runner = lib.runner(source: "voice")
        let w = try words(lib)
        let pause = try runner.understand(heard: "Pause my passion.", words: w)
        guard case .run(let inv, _) = pause.outcome else { Issue.record("not run: \(pause.outcome)"); return }
        #expect(inv.name == .pauseSession)
        #expect(pause.reading == "Pause my session.")
        // A curriculum misheard becomes the person's own.
        let start = try runner.understand(heard: "Start learning Spanich", words: w)
        guard case .run(let s, _) = start.outcome else { Issue.record("not run: \(start.outcome)"); return }
        #expect(s.name == .startSession)
        // Forget is only ever explained.
        for said in ["forget s001", "Forget memory s001.", "delete the memory s001"] {
            switch try runner.understand(heard: said, words: w).outcome {
            case .run(let inv, _): Issue.record("\(said) ran \(inv.name)")
            case .ask(let c): #expect(!c.options.contains { $0.intent == .forgetMemory }, "\(said)")
            case .none: break
            }
        }
        // Noise and nothing.
        #expect(try runner.understand(heard: " . ", words: w).outcome == .none(phrase: "", closest: nil))
    }

    @Test func aCaptureOfEverydayWordsIsKeptAsHeard() throws {
        let lib = try TestLibrary()
        let everyday: Set<String> = ["remember", "to", "call", "the", "plumber", "tomorrow", "about", "heating"]
        let r = try lib.runner(source: "voice").understand(heard: "Remember to call the plumber tomorrow about the heating.",
                                                           words: try words(lib, everyday: everyday))
        guard case .run(let inv, _) = r.outcome else { Issue.record("not run: \(r.outcome)"); return }
        #expect(inv.name == .storeMemory)
        #expect(inv.arguments["content"]?.contains("plumber tomorrow") == true)
        #expect(r.corrections.isEmpty)
    }

    @Test func aCaptureWithAWordNobodyKnowsIsReadBackFirst() throws {
        let lib = try TestLibrary()
        let everyday: Set<String> = ["save", "idea", "about", "forgotten", "inventions", "remember", "to", "call", "the", "tomorrow"]
        let runner = lib.runner(source: "voice")
        let w = try words(lib, everyday: everyday)
        for (said, doubtful) in [("Save idea pod est about forgotten inventions.", "“est”"),
                                 ("Remember to call the plumbr tomorrow", "“plumbr”")] {
            let r = try runner.understand(heard: said, words: w)
            guard case .ask(let c) = r.outcome else { Issue.record("\(said): not asked: \(r.outcome)"); continue }
            #expect(c.question.contains(doubtful), "\(c.question)")
            // Saying yes keeps the words as heard: nothing put right behind the person's back.
            #expect(c.options.count == 1 && c.options[0].intent == .storeMemory)
            #expect(c.options[0].arguments["content"].map { said.contains($0) } == true, "\(c.options)")
            #expect(SpokenAnswer.read("yes", for: c) == .option(1))
        }
        // A word of the person's own memories is vouched for by the store, not by the language: "sourdough".
        let own = try runner.understand(heard: "Remember to feed the sourdough tomorrow", words: try words(lib, everyday: ["to", "feed", "the", "tomorrow"]))
        guard case .run = own.outcome else { Issue.record("not run: \(own.outcome)"); return }
    }

    @Test func theWordsACaptureCannotVouchFor() {
        let w = HeardWords(commandWords: ["remember"], otherWords: ["xapian"], everyday: ["buy", "milk", "at", "alice", "pm"])
        #expect(w.unsure(in: "buy milk at 7 pm") == [])
        #expect(w.unsure(in: "Alice's xapian, milk!") == [])
        #expect(w.unsure(in: "buy zorbles and more zorbles") == ["zorbles", "more"])
        #expect(w.unsure(in: "“Blorp” — at 5:30") == ["blorp"])
    }

    @Test func theSystemWordListIsReadWithoutPossessives() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("engram-words-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let list = dir.appendingPathComponent("words").path
        try "Alice\nAlice's\napple\nzebra\n".write(toFile: list, atomically: true, encoding: .utf8)
        #expect(HeardWords.systemWordList(paths: [dir.appendingPathComponent("none").path, list]) == ["alice", "apple", "zebra"])
        #expect(HeardWords.systemWordList(paths: [dir.appendingPathComponent("none").path]).isEmpty)
    }

    @Test func spokenAnswersPickAnOptionOrNothing() {
        let two = Clarification(question: "Which?", options: [IntentInvocation(.pauseSession), IntentInvocation(.stopSession)])
        #expect(SpokenAnswer.read("Yes.", for: two) == .option(1))
        #expect(SpokenAnswer.read("The second one", for: two) == .option(2))
        #expect(SpokenAnswer.read("number two please", for: two) == .option(2))
        #expect(SpokenAnswer.read("the third one", for: two) == .no)
        #expect(SpokenAnswer.read("Cancel.", for: two) == .no)
        #expect(SpokenAnswer.read("no, don't", for: two) == .no)
        #expect(SpokenAnswer.read("", for: two) == .no)
        #expect(SpokenAnswer.read("banana", for: two) == .no)
    }
}
