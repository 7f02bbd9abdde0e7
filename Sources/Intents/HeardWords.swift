import EngramCore
import Foundation

/// Puts right what a recogniser misheard, against what Engram knows: the words of the catalog's phrases and the
/// person's own, their curricula, topics and tags, and the index's spelling data (every word of their memories).
/// "pause my passion" becomes "pause my session", "search for sardo" "search for sourdough". A word is replaced only
/// by a known word that sounds and is spelt much like it, clearly more than any other; short words, numbers and
/// known words stay as heard. The words requests are made of come first ("pause my passion" is a request, so
/// "session", though "bastion" is in the notes and sounds nearer), then the person's own words.
public struct HeardWords: Sendable {
    /// One word put right.
    public struct Correction: Sendable, Codable, Equatable {
        public var heard: String
        public var became: String
    }

    /// A replacement must be this similar (0…1, half sound, half spelling)…
    static let minimum = 0.68
    /// …and this much more similar than the next candidate.
    static let margin = 0.04

    let command: Set<String>
    let known: Set<String>
    /// Everyday words of the language (the system's word list): never put right, but a capture holding a word that is
    /// in neither this nor `known` is read back before it is kept (`unsure(in:)`).
    let everyday: Set<String>
    private let knownByLength: [Int: [String]]

    /// The vocabulary: `commandWords` (phrases, names) and `otherWords` (the spelling data), lower-cased; `everyday`,
    /// the language's word list.
    public init(commandWords: [String], otherWords: [String], everyday: Set<String> = []) {
        let split = { (texts: [String]) in
            Set(texts.flatMap { $0.lowercased().split(whereSeparator: { !$0.isLetter && $0 != "'" }).map(String.init) }.filter { $0.count >= 2 })
        }
        command = split(commandWords)
        known = command.union(split(otherWords))
        self.everyday = everyday
        knownByLength = Dictionary(grouping: known, by: \.count)
    }

    /// The words of the catalog (and the person's phrases) and of the store's names; `everyday` is the system's word
    /// list (`systemWordList()`).
    public init(matcher: PhraseMatcher, store: Store?, spelling: [String], everyday: Set<String> = []) {
        var words = matcher.phrases.map { $0.0.template.replacingOccurrences(of: #"\{[^}]*\}"#, with: " ", options: .regularExpression) }
        words += MemoryType.allCases.map(\.rawValue)
        if let store {
            words += ((try? store.curricula()) ?? []).map(\.title)
            words += ((try? store.allTopics()) ?? []).map(\.title)
            words += (try? store.tagNames()) ?? []
        }
        self.init(commandWords: words, otherWords: spelling, everyday: everyday)
    }

    /// Where Debian's word lists put the language's words (`wamerican`, `wbritish`: one word a line).
    public static let wordListPaths = ["/usr/share/dict/words", "/usr/share/dict/american-english", "/usr/share/dict/british-english"]

    /// The first word list found, lower-cased, without possessives ("Alice's"); empty when none is installed.
    public static func systemWordList(paths: [String] = wordListPaths) -> Set<String> {
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else { continue }
            var words = Set<String>()
            for line in text.split(separator: "\n") where !line.hasSuffix("'s") {
                words.insert(line.lowercased())
            }
            if !words.isEmpty { return words }
        }
        return []
    }

    /// The words of `text` Engram cannot vouch for: not a word of requests or of the person's store, not an
    /// everyday word of the language, not a number. "pod est about forgotten inventions" → ["est"]. A capture holding
    /// one is read back before it is kept: a recogniser's mishearing is most often such a word, and what is kept
    /// misheard is a memory lost. Without a word list every word outside the store is one.
    public func unsure(in text: String) -> [String] {
        var out: [String] = []
        for token in text.split(whereSeparator: { $0.isWhitespace || "-–—/".contains($0) }) {
            var word = String(token).trimmingCharacters(in: .punctuationCharacters.union(.symbols)).lowercased()
            for suffix in ["'s", "’s", "'", "’"] where word.hasSuffix(suffix) { word.removeLast(suffix.count) }
            guard word.count >= 2, word.contains(where: \.isLetter), !word.contains(where: \.isNumber) else { continue }
            if known.contains(word) || everyday.contains(word) || Self.plain.contains(word) { continue }
            if !out.contains(word) { out.append(word) }
        }
        return out
    }

    /// `text` with its unknown words put right, and what was changed.
    public func corrected(_ text: String) -> (text: String, corrections: [Correction]) {
        var out: [String] = []
        var changes: [Correction] = []
        for token in text.split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
            // Keep the token's punctuation around the word ("sardo?" → "sourdough?").
            let core = token.trimmingCharacters(in: .punctuationCharacters)
            let word = core.lowercased()
            guard word.count >= 3, word.allSatisfy({ $0.isLetter || $0 == "'" }), !known.contains(word), !Self.plain.contains(word),
                  let better = best(for: word, among: command.sorted()) ?? best(for: word, among: similarLength(word)) else {
                out.append(token)
                continue
            }
            changes.append(Correction(heard: core, became: better))
            out.append(token.replacingOccurrences(of: core, with: better))
        }
        return (out.joined(separator: " "), changes)
    }

    private func similarLength(_ word: String) -> [String] {
        (max(2, word.count - 4)...(word.count + 4)).flatMap { knownByLength[$0] ?? [] }
    }

    /// The word of `candidates` most like `word`, if one clearly is.
    func best(for word: String, among candidates: [String]) -> String? {
        let key = Self.sound(word)
        var first: (String, Double)?
        var second = 0.0
        for c in candidates {
            let s = Self.similarity(word, key, c)
            if let f = first, s <= f.1 { second = max(second, s); continue }
            if let f = first { second = max(second, f.1) }
            first = (c, s)
        }
        guard let (w, s) = first, s >= Self.minimum, s - second >= Self.margin else { return nil }
        return w
    }

    static func similarity(_ a: String, _ aKey: String, _ b: String) -> Double {
        let bKey = sound(b)
        let spelt = 1 - Double(PhraseMatcher.editDistance(Array(a), Array(b))) / Double(max(a.count, b.count))
        let heard = 1 - Double(PhraseMatcher.editDistance(Array(aKey), Array(bKey))) / Double(max(1, aKey.count, bKey.count))
        return 0.5 * spelt + 0.5 * heard
    }

    /// How a word sounds, roughly: its consonants by how they are said (b/p, d/t, g/k/c/q, f/v/ph, s/z/soft c,
    /// m/n, sh/ch/tion), silent letters dropped, repeats merged, vowels dropped after the first letter.
    static func sound(_ word: String) -> String {
        var w = word.lowercased()
        for (from, to) in [("tion", "X"), ("sion", "X"), ("ssion", "X"), ("sh", "X"), ("ch", "X"), ("ph", "f"), ("gh", ""), ("ck", "k"),
                           ("wh", "w"), ("ce", "se"), ("ci", "si"), ("cy", "sy"), ("x", "ks"), ("dge", "j"), ("qu", "kw")] {
            w = w.replacingOccurrences(of: from, with: to)
        }
        if w.hasPrefix("kn") || w.hasPrefix("wr") { w.removeFirst() }
        let classes: [Character: Character] = ["b": "P", "p": "P", "d": "T", "t": "T", "g": "K", "k": "K", "c": "K", "q": "K",
                                               "f": "F", "v": "F", "s": "S", "z": "S", "m": "N", "n": "N", "l": "L", "r": "R",
                                               "j": "J", "X": "X"]
        var out = ""
        for (i, ch) in w.enumerated() {
            let mapped: Character
            if let c = classes[ch] { mapped = c } else if i == 0, "aeiouy".contains(ch) { mapped = "A" } else { continue }
            if out.last != mapped { out.append(mapped) }
        }
        return out
    }

    /// Everyday words never replaced, whatever they sound like.
    static let plain: Set<String> = ["the", "and", "for", "you", "your", "are", "was", "what", "that", "this", "with", "about", "have",
                                     "from", "how", "many", "much", "any", "all", "can", "could", "would", "should", "will", "not",
                                     "yes", "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                                     "first", "second", "third", "last", "cancel", "today", "tomorrow", "yesterday", "week",
                                     "month", "year", "did", "does", "know", "there", "their", "them", "then", "when", "where"]
}
