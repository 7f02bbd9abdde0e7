import EngramCore
import Foundation

/// What Engram made of words it heard: the reading it understood (the transcript, or the transcript with misheard
/// words put right), and what to do.
public struct HeardRequest: Sendable {
    /// The recogniser's words.
    public var transcript: String
    /// The words understood.
    public var reading: String
    /// The words put right on the way.
    public var corrections: [HeardWords.Correction]
    public var outcome: Understood
}

extension IntentRunner {
    /// Understands a transcript as typed words are understood (the same rules, names checked against the store, a
    /// question rather than a doubtful change), reading it with the words unknown to Engram put right
    /// (`HeardWords`), then as heard: the first reading that is clear runs; a capture keeps its words as heard, and
    /// is read back first ("Remember “pod est about…”?") when a word of it is one Engram cannot vouch for
    /// (`HeardWords.unsure(in:)`). When neither reading is clear, the question of the better one is asked. Forget
    /// never runs from words, heard or typed.
    public func understand(heard transcript: String, words: HeardWords) throws -> HeardRequest {
        let said = transcript.trimmingCharacters(in: .whitespacesAndNewlines)
        guard said.contains(where: { $0.isLetter }) else {
            return HeardRequest(transcript: transcript, reading: "", corrections: [], outcome: .none(phrase: "", closest: nil))
        }
        var asHeard = HeardRequest(transcript: transcript, reading: said, corrections: [], outcome: try understand(said).0)
        if case .run(let inv, _) = asHeard.outcome, inv.name == .storeMemory {
            let content = inv.arguments["content"] ?? ""
            let unsure = words.unsure(in: content)
            if !unsure.isEmpty {
                let quoted = unsure.prefix(3).map { "“\($0)”" }.joined(separator: ", ")
                asHeard.outcome = .ask(Clarification(
                    question: "Remember “\(content)”? I am not sure I heard \(quoted) right.", options: [inv], reason: .confirm))
            }
            return asHeard
        }
        let fixed = words.corrected(said)
        guard !fixed.corrections.isEmpty else { return asHeard }
        let corrected = HeardRequest(transcript: transcript, reading: fixed.text, corrections: fixed.corrections,
                                     outcome: try understand(fixed.text).0)
        let readings = [corrected, asHeard]
        if let run = readings.first(where: { if case .run = $0.outcome { true } else { false } }) { return run }
        if let asked = readings.first(where: { if case .ask(let c) = $0.outcome { c.reason != .guess } else { false } }) { return asked }
        return asHeard
    }
}

/// An answer to a question Engram asked aloud: "yes", "the second one", "cancel", or words for a missing slot.
public enum SpokenAnswer: Equatable, Sendable {
    case option(Int)
    case no
    case words(String)

    /// Reads `heard` as an answer to `question`.
    public static func read(_ heard: String, for question: Clarification) -> SpokenAnswer {
        let t = heard.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
        let text = t.joined(separator: " ")
        if question.missing != nil {
            return t.isEmpty || ["cancel", "nothing", "never mind", "no", "stop"].contains(text) ? .no : .words(heard.trimmingCharacters(in: .whitespacesAndNewlines.union(.punctuationCharacters)))
        }
        guard !t.isEmpty else { return .no }
        let ordinals = ["first": 1, "one": 1, "1": 1, "second": 2, "two": 2, "2": 2, "third": 3, "three": 3, "3": 3,
                        "fourth": 4, "four": 4, "4": 4, "fifth": 5, "five": 5, "5": 5]
        if t.contains(where: { ["no", "nope", "cancel", "stop", "don't", "dont", "not"].contains($0) }) || text.contains("never mind") { return .no }
        if let n = t.compactMap({ ordinals[$0] }).first, n <= question.options.count { return .option(n) }
        let yes: Set<String> = ["yes", "yeah", "yep", "yup", "sure", "ok", "okay", "correct", "right", "please", "do", "affirmative"]
        if t.contains(where: { yes.contains($0) }), !question.options.isEmpty { return .option(1) }
        return .no
    }
}

extension KnownNames {
    /// The curriculum an answer to "Which curriculum?" names: the one whose title shares the most words with it
    /// ("sweat concurrency, please" is Swift Concurrency, as a recogniser may hear it), if exactly one does.
    public func curriculum(answering answer: String) -> String? {
        func words(_ t: String) -> Set<String> {
            Set(t.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init).filter { $0.count >= 3 && !HeardWords.plain.contains($0) })
        }
        if let exact = curricula(named: answer).first, curricula(named: answer).count == 1 { return exact }
        let said = words(answer)
        let scored = curricula.map { ($0.id, words($0.title + " " + $0.id).intersection(said).count) }.filter { $0.1 > 0 }
        guard let top = scored.max(by: { $0.1 < $1.1 }), scored.filter({ $0.1 == top.1 }).count == 1 else { return nil }
        return top.0
    }
}
