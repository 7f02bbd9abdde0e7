import EngramCore
import Foundation

/// An intent and the arguments a phrase gave it.
public struct IntentInvocation: Sendable, Equatable {
    public var name: IntentName
    /// Argument values as text, by parameter name (defaults are filled in by `resolved()`).
    public var arguments: [String: String]

    /// Creates an invocation.
    public init(_ name: IntentName, _ arguments: [String: String] = [:]) {
        self.name = name
        self.arguments = arguments
    }

    /// The arguments with defaults filled in, checked against the parameters' kinds.
    public func resolved() throws -> [String: String] {
        let def = IntentCatalog.definition(name)
        var out: [String: String] = [:]
        for (k, _) in arguments where def.parameter(k) == nil {
            throw EngramError.invalidInput("\(name.rawValue) has no parameter '\(k)'; it takes \(def.parameters.map(\.name).joined(separator: ", ").nilIfEmpty ?? "none")")
        }
        for p in def.parameters {
            let given = arguments[p.name].map { $0.trimmingCharacters(in: .whitespaces) }
            guard let v = (given?.isEmpty == false ? given : nil) ?? p.defaultValue else {
                throw EngramError.invalidInput("\(name.rawValue) needs \(p.name): \(p.summary)")
            }
            switch p.kind {
            case .integer:
                guard let n = Int(v) ?? Self.numberWords[v.lowercased()], n >= 0, n <= 10_000 else {
                    throw EngramError.invalidInput("\(p.name) must be a whole number, not “\(v)”")
                }
                out[p.name] = String(n)
            case .boolean:
                guard let b = ["true": true, "yes": true, "on": true, "1": true, "false": false, "no": false, "off": false, "0": false][v.lowercased()] else {
                    throw EngramError.invalidInput("\(p.name) must be true or false, not “\(v)”")
                }
                out[p.name] = String(b)
            case .timeRange:
                guard let r = TimeRange(spoken: v) else { throw EngramError.invalidInput("\(p.name) must be today, week, month, year or all, not “\(v)”") }
                out[p.name] = r.rawValue
            case .memoryType:
                guard let t = MemoryType(rawValue: v.lowercased()) else {
                    throw EngramError.invalidInput("type must be \(MemoryType.spokenList), not “\(v)”")
                }
                out[p.name] = t.rawValue
            default:
                out[p.name] = v
            }
        }
        return out
    }

    static let numberWords = ["one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                              "ten": 10, "twenty": 20, "fifty": 50]
}

/// What went wrong with a phrase or an argument, in words a person can act on.
public enum IntentError: Error, Equatable, CustomStringConvertible {
    /// Nothing in the catalog matches; `closest` is the nearest intent and phrase, if any is near.
    case noMatch(phrase: String, closest: (IntentName, String)?)
    /// An argument is missing or malformed.
    case badArgument(String)
    /// What was said is not clear enough to act on: Engram asks this first.
    case unclear(Clarification)

    public static func == (a: IntentError, b: IntentError) -> Bool { a.description == b.description }

    public var description: String {
        switch self {
        case .noMatch(let phrase, let closest):
            let base = "nothing matches “\(phrase)”"
            guard let (name, template) = closest else { return base + "; `engram ask --list` shows every phrase" }
            return base + ". Closest: \(name.rawValue) — try “\(template)”; `engram ask --list` shows every phrase"
        case .badArgument(let m): return m
        case .unclear(let c): return c.question
        }
    }
}

/// Matches what a person said or typed against the catalog's phrases (and their own from config.toml).
public struct PhraseMatcher: Sendable {
    struct Compiled: Sendable {
        var phrase: Phrase
        var intent: IntentName
        var regex: NSRegularExpressionBox
        var literalLength: Int
        var literalWords: [String]
    }

    let compiled: [Compiled]

    /// Every phrase matched against, with its intent (the catalog's, then the person's own).
    public var phrases: [(Phrase, IntentName)] { compiled.map { ($0.phrase, $0.intent) } }

    /// A matcher over the catalog plus `userPhrases` (template → intent).
    public init(userPhrases: [(template: String, intent: IntentName)] = []) {
        var list: [Compiled] = []
        for def in IntentCatalog.all {
            for p in def.phrases { list.append(Self.compile(p, def.name)) }
        }
        for u in userPhrases { list.append(Self.compile(Phrase(u.template), u.intent)) }
        compiled = list
    }

    static func compile(_ phrase: Phrase, _ intent: IntentName) -> Compiled {
        var pattern = "^"
        var literal = ""
        var rest = Substring(phrase.template.lowercased())
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            let lit = String(rest[..<open])
            literal += lit
            pattern += NSRegularExpression.escapedPattern(for: lit).replacingOccurrences(of: " ", with: "\\s+")
            pattern += "(.+?)"
            rest = rest[rest.index(after: close)...]
        }
        literal += rest
        pattern += NSRegularExpression.escapedPattern(for: String(rest)).replacingOccurrences(of: " ", with: "\\s+") + "$"
        let regex = try! NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
        let words = literal.split(separator: " ").map(String.init)
        return Compiled(phrase: phrase, intent: intent, regex: NSRegularExpressionBox(regex), literalLength: literal.count, literalWords: words)
    }

    /// Strips what people add around a request: surrounding space, a closing "?", "." or "!", "please", "engram,".
    public static func normalize(_ text: String) -> String {
        var t = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        while let last = t.last, "?.!".contains(last) { t.removeLast() }
        for prefix in ["hey engram, ", "hey engram ", "engram, ", "please "] where t.lowercased().hasPrefix(prefix) {
            t.removeFirst(prefix.count)
        }
        if t.lowercased().hasSuffix(" please") { t.removeLast(7) }
        return t.trimmingCharacters(in: .whitespaces)
    }

    /// The best matching intent for `text`, or an error naming the closest intent.
    public func match(_ text: String) throws -> IntentInvocation {
        let t = Self.normalize(text)
        var best: (IntentInvocation, Int)?
        for c in compiled {
            let ns = t as NSString
            guard let m = c.regex.value.firstMatch(in: t, range: NSRange(location: 0, length: ns.length)) else { continue }
            var args = c.phrase.fixed
            var ok = true
            for (i, slot) in c.phrase.slots.enumerated() {
                let v = ns.substring(with: m.range(at: i + 1)).trimmingCharacters(in: .whitespaces)
                if v.isEmpty { ok = false }
                args[slot] = v
            }
            let inv = IntentInvocation(c.intent, args)
            guard ok, (try? inv.resolved()) != nil || c.phrase.slots.isEmpty else { continue }
            if best == nil || c.literalLength > best!.1 { best = (inv, c.literalLength) }
        }
        if let best { return best.0 }
        throw IntentError.noMatch(phrase: t, closest: closest(to: t))
    }

    /// The intent and phrase nearest to `text` by words in common (allowing typos), if any word is shared.
    public func closest(to text: String) -> (IntentName, String)? {
        let words = text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
        var best: (IntentName, String, Double)?
        for c in compiled where !c.literalWords.isEmpty {
            let hits = c.literalWords.filter { lw in words.contains { Self.near($0, lw) } }.count
            guard hits > 0 else { continue }
            // Reward phrases whose words are covered, and whose first word is the first word said.
            var score = Double(hits) / Double(c.literalWords.count) + Double(hits) * 0.1
            if let f = words.first, let lf = c.literalWords.first, Self.near(f, lf) { score += 0.5 }
            if best == nil || score > best!.2 { best = (c.intent, c.phrase.template, score) }
        }
        return best.map { ($0.0, $0.1) }
    }

    /// Whether two words are the same but for a typo (edit distance 1, or 2 for long words).
    static func near(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        let limit = max(a.count, b.count) >= 6 ? 2 : (max(a.count, b.count) >= 4 ? 1 : 0)
        guard limit > 0, abs(a.count - b.count) <= limit else { return false }
        return editDistance(Array(a), Array(b)) <= limit
    }

    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var prev = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var cur = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(1, b.count) where !b.isEmpty {
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            prev = cur
        }
        return a.isEmpty ? b.count : prev[b.count]
    }
}

/// An NSRegularExpression that can cross concurrency domains (it is immutable once built).
struct NSRegularExpressionBox: @unchecked Sendable {
    let value: NSRegularExpression
    init(_ value: NSRegularExpression) { self.value = value }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
