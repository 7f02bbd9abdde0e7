import EngramCore
import Foundation
import EngramApp
import Indexer

/// One sentence of an extractive summary, with the memory it came from.
public struct SummarySentence: Sendable, Codable, Equatable {
    public var text: String
    public var memoryID: String
}

/// An extractive summary: sentences taken from the memories themselves, nothing generated.
public struct Summary: Sendable, Codable, Equatable {
    public var topic: String
    public var range: TimeRange
    /// The memories considered (search hits, then their links to depth 2), most relevant first.
    public var memoryIDs: [String]
    public var sentences: [SummarySentence]
}

/// Summarizes what a person noted on a subject: the index's best memories in the range, expanded through links
/// to depth 2, then sentences chosen greedily by maximal marginal relevance over word overlap (coverage without
/// repetition), each sentence's relevance raised by how close it is to the topic in meaning when the model is on.
public struct Summarizer {
    public let library: Library
    /// How many search hits seed the summary.
    public var seeds = 8
    /// How many sentences at most.
    public var maxSentences = 5
    /// Relevance against novelty in MMR (1 ignores repetition).
    public var lambda = 0.7
    public var calendar: Calendar

    /// Creates a summarizer over `library`.
    public init(library: Library, calendar: Calendar = .current) {
        self.library = library
        self.calendar = calendar
    }

    /// Summarizes `topic` over `range` (ending at the store's clock).
    public func summarize(_ topic: String, range: TimeRange) throws -> Summary {
        let store = library.store
        let now = store.clock()
        let empty = Summary(topic: topic, range: range, memoryIDs: [], sentences: [])
        let start = range.start(at: now, calendar: calendar)
        let query = start.map { "(\(topic)) created:\(ISODate.day($0)).." } ?? topic
        guard var req = try library.searchRequest(query, for: .command(limit: seeds)) else { return empty }  // sleep
        let context = req.context
        req.kinds = [.memory]
        req.now = now
        req.decayWeight = 0   // a summary wants what is about the subject, not what is fresh
        req.snippetLength = 0
        let hits = try library.search(req).hits
        // Weight: the hit's relevance, halved at each link away.
        var weight: [String: Double] = [:]
        var order: [String] = []
        var frontier: [String] = []
        for h in hits where weight[h.id] == nil {
            weight[h.id] = max(h.relevance, 0.05)
            order.append(h.id)
            frontier.append(h.id)
        }
        for _ in 0..<2 {
            var next: [String] = []
            for id in frontier {
                for l in try store.links(of: id) {
                    let other = l.other(than: id)
                    guard weight[other] == nil, let m = try store.memory(id: other) else { continue }
                    if let start, m.created < start { continue }
                    if let context, let mc = m.context, mc != context { continue }
                    weight[other] = weight[id]! * 0.5 * l.weight
                    order.append(other)
                    next.append(other)
                }
            }
            frontier = next
        }
        let memories = try store.memories(ids: order)
        let queryTerms = Set(Self.terms(topic))
        // Candidates: every sentence of every memory, scored by its memory's weight, how many query words it holds,
        // and how central its words are across all candidates (coverage).
        var candidates: [(text: String, id: String, terms: Set<String>, score: Double)] = []
        var df: [String: Int] = [:]
        var raw: [(String, String, Set<String>)] = []
        for m in memories {
            for s in Self.sentences(m.content) {
                let t = Set(Self.terms(s))
                guard t.count >= 3 else { continue }
                if s.hasSuffix(":") { continue }  // a heading, not a statement
                raw.append((s, m.id, t))
                for w in t { df[w, default: 0] += 1 }
            }
        }
        let closeness = meaningCloseness(topic, raw.map(\.0))
        for (i, (s, id, t)) in raw.enumerated() {
            let centrality = t.reduce(0.0) { $0 + Double(df[$1]! - 1) } / Double(t.count)
            let overlap = Double(t.intersection(queryTerms).count)
            let score = weight[id]! * (1 + overlap) * (1 + centrality) * (1 + closeness[i])
            candidates.append((s, id, t, score))
        }
        let top = candidates.map(\.score).max() ?? 1
        var chosen: [(text: String, id: String, terms: Set<String>)] = []
        var remaining = candidates
        while chosen.count < maxSentences, !remaining.isEmpty {
            var bestIndex = 0
            var bestValue = -Double.infinity
            for (i, c) in remaining.enumerated() {
                let redundancy = chosen.map { Self.jaccard(c.terms, $0.terms) }.max() ?? 0
                let value = lambda * c.score / top - (1 - lambda) * redundancy
                if value > bestValue + 1e-12 { bestValue = value; bestIndex = i }
            }
            let c = remaining.remove(at: bestIndex)
            // Near-duplicates add nothing: skip them rather than repeat.
            if chosen.contains(where: { Self.jaccard(c.terms, $0.terms) > 0.6 }) { continue }
            chosen.append((c.text, c.id, c.terms))
        }
        return Summary(topic: topic, range: range, memoryIDs: memories.map(\.id),
                       sentences: chosen.map { SummarySentence(text: $0.text, memoryID: $0.id) })
    }

    /// Sentences are compared with the topic by meaning too, when the model is on (at most this many per summary).
    static let meaningSentenceLimit = 200

    /// Per sentence, how close it is in meaning to the topic against the closest one (0…1), or all 0 while meaning
    /// search is off: a sentence that says what the topic means, in other words, is chosen as one with its words.
    func meaningCloseness(_ topic: String, _ sentences: [String]) -> [Double] {
        let none = [Double](repeating: 0, count: sentences.count)
        guard !sentences.isEmpty, sentences.count <= Self.meaningSentenceLimit,
              case .success(let embedder) = library.meaningModel,
              let q = try? embedder.embed([topic], as: .query).first,
              let vectors = try? embedder.embed(sentences, as: .passage) else { return none }
        let similarity = vectors.map { v in Double(zip(q, v).reduce(0) { $0 + $1.0 * $1.1 }) }
        let best = similarity.max() ?? 0
        let band = Double(MeaningSearch.relativeCutoff)
        return similarity.map { max(0, min(1, ($0 - (best - band)) / band)) }
    }

    /// Splits text into sentences at . ! ? and line breaks, dropping list markers.
    static func sentences(_ text: String) -> [String] {
        var out: [String] = []
        for line in text.split(whereSeparator: \.isNewline) {
            var l = line.trimmingCharacters(in: .whitespaces)
            while let f = l.first, "-*#>•".contains(f) { l.removeFirst(); l = l.trimmingCharacters(in: .whitespaces) }
            var current = ""
            let chars = Array(l)
            for (i, ch) in chars.enumerated() {
                current.append(ch)
                let atEnd = i + 1 == chars.count || chars[i + 1] == " "
                if ".!?".contains(ch), atEnd, current.count > 12 {
                    out.append(current.trimmingCharacters(in: .whitespaces))
                    current = ""
                }
            }
            let rest = current.trimmingCharacters(in: .whitespaces)
            if !rest.isEmpty { out.append(rest) }
        }
        return out
    }

    /// Lowercased content words of four letters or more, with a crude plural fold, stop words dropped.
    static func terms(_ text: String) -> [String] {
        text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
            .filter { $0.count >= 3 && !stopWords.contains($0) }
            .map { $0.count > 4 && $0.hasSuffix("s") && !$0.hasSuffix("ss") ? String($0.dropLast()) : $0 }
    }

    static func jaccard(_ a: Set<String>, _ b: Set<String>) -> Double {
        let u = a.union(b).count
        return u == 0 ? 0 : Double(a.intersection(b).count) / Double(u)
    }

    static let stopWords: Set<String> = [
        "the", "and", "for", "that", "this", "with", "you", "are", "was", "but", "not", "have", "has", "from", "they",
        "them", "then", "than", "what", "when", "which", "will", "would", "can", "could", "into", "out", "its", "it's",
        "one", "all", "any", "more", "most", "some", "only", "also", "just", "your", "our", "their", "there", "here",
        "been", "being", "were", "who", "how", "why", "about", "after", "before", "over", "under", "each", "every",
        "does", "did", "doing", "done", "like", "get", "gets", "got", "make", "makes", "own", "same", "very", "too",
        "because", "while", "where", "so", "if", "of", "on", "in", "to", "is", "as", "at", "by", "or", "an", "be",
        "it", "a", "i", "me", "my", "we", "he", "she", "his", "her", "do", "no", "yes", "up", "down", "off", "now",
    ]
}
