import EngramCore
import Foundation
import EngramApp
import Indexer
import Intents
import Testing

/// Intents by meaning with the real model (installed by `make model`, part of `make test`): paraphrases reach their
/// intent with the slot filled, nonsense still matches nothing and names the closest intent.
@Suite("Intents by meaning")
struct IntentMeaningTests {
    static let modelConfig = "[search]\nmodel_dir = \"\(repositoryRoot)/.build/model\"\n"

    func library() throws -> TestLibrary {
        guard FileManager.default.fileExists(atPath: repositoryRoot + "/.build/model/libe5.so") else {
            throw TestError("the meaning model is not installed in .build/model: run `make model` (make test does)")
        }
        return try TestLibrary(samples: true, config: Self.modelConfig)
    }

    struct TestError: Error, CustomStringConvertible { var description: String; init(_ d: String) { description = d } }

    /// What no rule or template reads reaches a read-only intent by meaning; a state-changing one is only asked about.
    @Test func paraphrasesNoRuleReadsGoByMeaningAndAskBeforeAChange() throws {
        let lib = try library()
        let (outcome, meaning) = try lib.runner().understand("how large has my collection of memories grown")
        guard case .run(let invocation, _) = outcome else { Issue.record("not run: \(outcome)"); return }
        #expect(invocation.name == .memoryStats, "\(invocation)")
        #expect(try #require(meaning?.score) >= IntentMeaning.threshold)
    }

    @Test func nonsenseMatchesNothingAndNamesTheClosest() throws {
        let lib = try library()
        for said in ["purple elephant banana spaceship", "the weather is nice today"] {
            #expect {
                try lib.runner().resolve(said)
            } throws: { error in
                guard case IntentError.noMatch(_, let closest) = error else { return false }
                return closest?.1.contains("below") == true
            }
        }
    }

    @Test func templatesStillWinAndNeedNoModel() throws {
        let lib = try TestLibrary(samples: true, config: "[search]\nsemantic = false\n")
        let (invocation, meaning) = try lib.runner().resolve("remember buy oat milk")
        #expect(invocation.name == .storeMemory && meaning == nil)
        // The spoken-style rules need no model either.
        let (spoken, none) = try lib.runner().resolve("make a note that the car needs new tyres")
        #expect(spoken.name == .storeMemory && spoken.arguments["content"] == "the car needs new tyres" && none == nil)
    }

    @Test func storingByMeaningStoresTheSlotText() throws {
        let lib = try library()
        let result = try lib.ask("make a note that the car needs new tyres")
        #expect(result.intent == .storeMemory)
        let stored = try lib.library.store.memoryIDs().compactMap { try lib.library.store.memory(id: $0) }
        #expect(stored.contains { $0.content == "the car needs new tyres" })
    }
}
