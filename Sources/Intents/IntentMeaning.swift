import EngramCore
import Foundation
import EngramApp
import Indexer
import Meaning

/// Intents by meaning: a phrase no template matches is compared, by sentence embeddings, with every phrase of the
/// catalog and the person's own, so "make a note that the car needs new tyres" is StoreMemory with "the car needs new
/// tyres", and "I want to pause for a bit" is PauseSession.
///
/// A phrase without a slot is compared whole. For a phrase with one ("note {content}"), each of the first few words
/// of what was said is tried as its lead-in ("make a note that"), compared with the phrase's own words ("note"), and
/// the rest fills the slot. Below `threshold` nothing matches and the closest intent is named; e5's similarities bunch
/// (unrelated text still scores 0.80–0.86 here), so the threshold sits above that band.
public struct IntentMeaning {
    /// The similarity a match needs.
    public static let threshold: Float = 0.87
    /// Lead-ins of at most this many words are tried.
    static let maxLeadWords = 6

    struct Entry {
        var intent: IntentName
        var phrase: Phrase
        /// What is embedded: the template's words without its slot, or the whole template when it has none.
        var text: String
        var vector: [Float]
    }

    let embedder: any Embedder
    let entries: [Entry]

    /// A meaning match: the invocation, its similarity and the phrase it was matched to.
    public struct Match: Sendable {
        public var invocation: IntentInvocation
        public var score: Float
        public var template: String
    }

    /// Embeds the phrases (or reads them from the cache folder, keyed by model and phrases).
    public init(embedder: any Embedder, phrases: [(Phrase, IntentName)], cacheDirectory: String?) throws {
        self.embedder = embedder
        let texts = phrases.map { Self.literal($0.0) }
        var key: UInt64 = 0xcbf29ce484222325
        for b in (embedder.modelID + "\u{1}" + texts.joined(separator: "\u{1}")).utf8 { key = (key ^ UInt64(b)) &* 0x100000001b3 }
        let cache = cacheDirectory.map { $0 + "/intent-phrases-\(String(key, radix: 16)).f32" }
        var vectors: [[Float]]? = cache.flatMap { Self.read($0, count: texts.count, dimension: embedder.dimension) }
        if vectors == nil {
            let made = try embedder.embed(texts, as: .query)
            vectors = made
            if let cache { Self.write(made, to: cache) }
        }
        entries = zip(phrases, zip(texts, vectors!)).map { Entry(intent: $0.0.1, phrase: $0.0.0, text: $0.1.0, vector: $0.1.1) }
    }

    /// What a lead-in loses against the whole text said.
    static let leadPenalty: Float = 0.02
    /// Words that join a lead-in to what fills the slot ("note that …", "summary of …").
    static let connectors: Set<String> = ["that", "about", "of", "on", "to", "for", "called", "named", "saying", ":", "-"]

    /// The slot's text without the word that joined it to the lead-in.
    static func slotValue(_ rest: String) -> String {
        var words = rest.split(whereSeparator: \.isWhitespace)
        while words.count > 1, let first = words.first, connectors.contains(first.lowercased()) { words.removeFirst() }
        return words.joined(separator: " ")
    }

    /// The template's words with its slots taken out ("note {content}" → "note").
    static func literal(_ p: Phrase) -> String {
        p.template.replacingOccurrences(of: #"\{[^}]*\}"#, with: " ", options: .regularExpression)
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The best meaning match for what was said, whether or not it reaches the threshold (nil if nothing is embedded).
    public func best(_ said: String) throws -> Match? {
        let words = PhraseMatcher.normalize(said).split(whereSeparator: \.isWhitespace).map(String.init)
        guard !words.isEmpty else { return nil }
        // The whole text, then each short lead-in (its rest fills a slot).
        var candidates: [(lead: String, rest: String)] = [(words.joined(separator: " "), "")]
        for k in 1..<min(Self.maxLeadWords + 1, words.count) {
            candidates.append((words[..<k].joined(separator: " "), words[k...].joined(separator: " ")))
        }
        let vectors = try embedder.embed(candidates.map(\.lead), as: .query)
        var ranked: [Match] = []
        for (candidate, v) in zip(candidates, vectors) {
            for e in entries where e.phrase.slots.isEmpty == candidate.rest.isEmpty {
                // A lead-in must beat the whole text clearly: "how many notes" (+ "have I written") is a question.
                // Between near-equal phrases the plainer wins: "summarize {topic}" over "summarize {topic} this year".
                let score = zip(v, e.vector).reduce(0) { $0 + $1.0 * $1.1 } - (candidate.rest.isEmpty ? 0 : Self.leadPenalty)
                    - 0.005 * Float(e.phrase.fixed.count)
                var args = e.phrase.fixed
                if let slot = e.phrase.slots.first { args[slot] = Self.slotValue(candidate.rest) }
                guard e.phrase.slots.count <= 1 else { continue }
                ranked.append(Match(invocation: IntentInvocation(e.intent, args), score: score, template: e.phrase.template))
            }
        }
        ranked.sort { $0.score > $1.score }
        // The best whose arguments make sense (a topic that exists…); else the best at all, to name it.
        return ranked.prefix(8).first { (try? $0.invocation.resolved()) != nil } ?? ranked.first
    }

    private static func read(_ path: String, count: Int, dimension: Int) -> [[Float]]? {
        guard let data = FileManager.default.contents(atPath: path), data.count == count * dimension * 4 else { return nil }
        let floats = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        return (0..<count).map { Array(floats[($0 * dimension)..<(($0 + 1) * dimension)]) }
    }

    private static func write(_ vectors: [[Float]], to path: String) {
        let data = vectors.flatMap { $0 }.withUnsafeBufferPointer { Data(buffer: $0) }
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        FileManager.default.createFile(atPath: path, contents: data, attributes: [.posixPermissions: 0o600])
    }
}

extension IntentRunner {
    /// What to do about what was said: the spoken-style rules and templates first (`IntentUnderstanding`), then, for
    /// what they do not read, meaning (when the model is on): a read-only intent above the threshold runs, a
    /// state-changing one is only ever asked about.
    public func understand(_ said: String) throws -> (Understood, meaning: IntentMeaning.Match?) {
        let outcome = IntentUnderstanding(matcher: try matcher(), known: try? KnownNames(store: library.store)).understand(said)
        switch outcome {
        case .run: return (outcome, nil)
        case .ask(let c) where c.reason != .guess: return (outcome, nil)
        default: break
        }
        guard case .success(let embedder) = library.meaningModel else { return (outcome, nil) }
        let meaning = try IntentMeaning(embedder: embedder, phrases: try matcher().phrases,
                                        cacheDirectory: library.paths.runtimeDirectory + "/cache")
        guard let best = try meaning.best(said), best.score >= IntentMeaning.threshold, (try? best.invocation.resolved()) != nil else {
            if case .none(let phrase, _) = outcome, let best = try meaning.best(said) {
                return (.none(phrase: phrase, closest: best.invocation.name), best)
            }
            return (outcome, nil)
        }
        if IntentCatalog.definition(best.invocation.name).effect == .readOnly {
            return (.run(best.invocation, confidence: Double(best.score)), best)
        }
        return (.ask(Clarification(question: IntentUnderstanding.question(for: best.invocation), options: [best.invocation])), best)
    }

    /// The intent to run for what was said, or `IntentError.unclear` (Engram asks first) or `.noMatch`.
    public func resolve(_ said: String) throws -> (invocation: IntentInvocation, meaning: IntentMeaning.Match?) {
        let (outcome, meaning) = try understand(said)
        switch outcome {
        case .run(let invocation, _): return (invocation, meaning)
        case .ask(let c): throw IntentError.unclear(c)
        case .none(let phrase, let closest):
            if let meaning {
                throw IntentError.noMatch(phrase: phrase, closest: (meaning.invocation.name, meaning.template
                    + String(format: " (similarity %.2f, below %.2f)", meaning.score, IntentMeaning.threshold)))
            }
            let template = closest.flatMap { IntentCatalog.definition($0).phrases.first?.template }
            throw IntentError.noMatch(phrase: phrase, closest: closest.map { ($0, template ?? $0.rawValue) })
        }
    }

    /// What a person gets back for what they said: the intent's result, or Engram's question (a result carrying the
    /// clarification, its options as follow-ups) when it is not clear enough to act on.
    public func respond(_ said: String) throws -> IntentResult {
        let (outcome, _) = try understand(said)
        switch outcome {
        case .run(let invocation, _): return try run(invocation)
        case .ask(let c): return IntentResult(clarifying: c)
        case .none(let phrase, let closest):
            let template = closest.flatMap { IntentCatalog.definition($0).phrases.first?.template }
            throw IntentError.noMatch(phrase: phrase, closest: closest.map { ($0, template ?? $0.rawValue) })
        }
    }
}
