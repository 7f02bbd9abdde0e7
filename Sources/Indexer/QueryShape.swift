import Foundation

/// How a query is read: as syntax (every word required, fields, phrases, operators: exactly as typed) or as a
/// question in ordinary words (ranked), and whether meaning search joins in.
///
/// - Explicit syntax anywhere (`"phrase"`, `AND`/`OR`/`NOT`, `-word`, `+word`, `field:value`, `word*`, brackets):
///   words only, exactly as typed; no meaning.
/// - One or two words (what a person types into a launcher, narrowing as they go): every word required.
/// - Three or more words, or a question ("how…", "what…", a trailing "?"): the documents with every word first,
///   then the ones with some of them, ranked (BM25 over OR, stopwords dropped).
/// - Meaning joins plain-word queries with a finished word of at least four letters; typed into a launcher, only
///   questions in ordinary words (a last word shorter than four letters is taken as still being typed): "sourd"
///   is not yet a meaning, and "sourdough sched" narrows by words as the person types.
public enum QueryShape {
    /// The field prefixes of the query syntax (`tag:x`…): "Task::Kensho" or "12:30" are words, "tag:baking" is not.
    static let fields: Set<String> = ["tag", "type", "ctx", "in", "kind", "title", "created"]
    static let questionWords: Set<String> = [
        "how", "what", "why", "when", "where", "who", "which", "whats", "do", "does", "did", "is", "are", "can",
        "could", "should", "would", "was", "were", "have", "has", "i", "my",
    ]
    static let stopwords: Set<String> = [
        "a", "about", "an", "and", "are", "as", "at", "be", "by", "for", "from", "how", "i", "in", "is", "it", "of",
        "on", "or", "that", "the", "this", "to", "was", "what", "when", "where", "which", "who", "why", "will", "with",
        "do", "does", "did", "my", "me", "you", "your", "can", "could", "should", "would", "have", "has", "had",
    ]

    /// The words of a query with no syntax in it; nil when it has any.
    ///
    /// Ordinary writing is not syntax: punctuation around a word ("(transitional package)", "checklist:"), a dash
    /// between words, and hyphens, dots, apostrophes, plus signs, slashes, colons and brackets inside one
    /// ("command-line", "C++", "3.0", "TCP/IP", "Task::Kensho", "(de)muxers"), and quotes around one word ('Pandoc',
    /// feature "serde"). Syntax is: a quoted phrase, a field (`tag:x`),
    /// a leading `-` or `+`, a wildcard `*`, and the operators AND, OR, NOT, XOR, NEAR, ADJ.
    public static func plainWords(_ query: String) -> [String]? {
        var words: [String] = []
        if query.contains("*") || !quotesHoldSingleWords(query) { return nil }
        for raw in query.split(whereSeparator: \.isWhitespace) {
            var token = Substring(raw)
            if token.allSatisfy({ "-–—:;,.()&/".contains($0) }) { continue }  // a dash or mark between words
            if let first = token.first, first == "-" || first == "+" { return nil }
            while let first = token.first, "(\"'\u{2018}\u{201C}".contains(first) { token = token.dropFirst() }
            while let last = token.last, "?!.,;:)\"'\u{2019}\u{201D}".contains(last) { token = token.dropLast() }
            if token.isEmpty { continue }
            if let colon = token.firstIndex(of: ":"), fields.contains(token[..<colon].lowercased()) { return nil }
            guard let first = token.first, first.isLetter || first.isNumber,
                  token.allSatisfy({ $0.isLetter || $0.isNumber || "-'.+_/():\u{2019}".contains($0) }),
                  !["AND", "OR", "NOT", "XOR", "NEAR", "ADJ"].contains(String(token)) else { return nil }
            words.append(String(token))
        }
        return words
    }

    /// Whether every pair of double quotes holds one word: `feature "serialization"` names a word, as 'Pandoc'
    /// does; `"sourdough starter"` is a phrase, and an unclosed quote is syntax too.
    static func quotesHoldSingleWords(_ query: String) -> Bool {
        let spans = query.split(separator: "\"", omittingEmptySubsequences: false)
        guard spans.count % 2 == 1 else { return false }
        return stride(from: 1, to: spans.count, by: 2).allSatisfy { i in
            !spans[i].isEmpty && !spans[i].contains(where: \.isWhitespace)
        }
    }

    /// Whether the query narrows on purpose: a field (`type:note`, `ctx:work`), a word required or excluded (`+x`,
    /// `-x`) or an operator (`AND`, `NOT`, …). Such a query is never widened to some of its words.
    public static func narrowsOnPurpose(_ query: String) -> Bool {
        query.split(whereSeparator: \.isWhitespace).contains { token in
            if let first = token.first, first == "-" || first == "+", token.count > 1 { return true }
            if let colon = token.firstIndex(of: ":"),
               fields.contains(token[..<colon].trimmingCharacters(in: CharacterSet(charactersIn: "(\"")).lowercased()) { return true }
            return ["AND", "OR", "NOT", "XOR", "NEAR", "ADJ"].contains(String(token))
        }
    }

    /// A question in ordinary words: plain words, and three content words or more, or question-shaped.
    public static func isNatural(_ query: String) -> Bool {
        guard let words = plainWords(query), words.count >= 2 else { return false }
        let lower = words.map { $0.lowercased() }
        let content = lower.filter { !stopwords.contains($0) }
        if content.count >= 3 { return true }
        return words.count >= 3 && (questionWords.contains(lower[0]) || query.trimmingCharacters(in: .whitespaces).hasSuffix("?"))
    }

    /// Whether meaning search joins: plain words, with a finished word of four letters or more (with `partial`,
    /// the last word counts as finished only when whitespace follows it).
    public static func wantsMeaning(_ query: String, partial: Bool) -> Bool {
        meaningText(query, partial: partial) != nil
    }

    /// The text meaning search embeds, or nil when it does not join: plain words with a finished word of four
    /// letters or more. Typed into a launcher (`partial`), only a question in ordinary words (`isNatural`) and
    /// without the word still being typed: "sourdough sched" narrows by words as the person types, as before.
    public static func meaningText(_ query: String, partial: Bool) -> String? {
        guard var words = plainWords(query), !words.isEmpty else { return nil }
        if partial {
            // GNOME Shell never sends the space after a word, so the last word may be finished or not: a short one is
            // taken as still being typed ("reb"), a longer one is kept ("rebooting"; "reboo" is near enough).
            if let last = query.last, !last.isWhitespace, !"?!.,;".contains(last), (words.last?.count ?? 0) < 4 { words.removeLast() }
            guard isNatural(words.joined(separator: " ")) else { return nil }
        }
        guard words.contains(where: { $0.count >= 4 && !stopwords.contains($0.lowercased()) }) else { return nil }
        return words.joined(separator: " ")
    }
}
