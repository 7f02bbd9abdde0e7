import EngramApp
import EngramCore
import Foundation
import Indexer
@testable import Intents
import Testing

/// Words a recogniser misheard, put right against what Engram knows, and understood as typed words are.
@Suite(.serialized) struct HeardWordsTests {
    func words(_ lib: TestLibrary) throws -> HeardWords {
        HeardWords(matcher: try lib.runner().matcher(), store: lib.library.store,
                   spelling: try IndexReader.open(at: lib.paths.indexPath).spellingWords())
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

    @Test func aCaptureKeepsItsWordsAsHeard() throws {
        let lib = try TestLibrary()
        let r = try lib.runner(source: "voice").understand(heard: "Remember to call the plumbr tomorrow", words: try words(lib))
        guard case .run(let inv, _) = r.outcome else { Issue.record("not run: \(r.outcome)"); return }
        #expect(inv.arguments["content"]?.contains("plumbr") == true)
        #expect(r.corrections.isEmpty)
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
