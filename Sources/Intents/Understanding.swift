import EngramCore
import Foundation

/// What Engram makes of something a person said: run an intent, ask first, or nothing.
public enum Understood: Sendable, Equatable {
    /// Clear enough to run (for a state-changing intent: clearly the best reading).
    case run(IntentInvocation, confidence: Double)
    /// Not clear enough to act on: a question with the readings it offers (possibly none, for a missing slot).
    case ask(Clarification)
    /// Nothing Engram does.
    case none(phrase: String, closest: IntentName?)
}

/// A question Engram asks instead of guessing: "Pause the session?", "What should I remember?".
public struct Clarification: Sendable, Codable, Equatable {
    /// One option: an invocation the person can pick, with its label and launcher command id.
    public struct Option: Sendable, Codable, Equatable {
        public var intent: IntentName
        public var arguments: [String: String]
        public var label: String
        public var commandID: String
    }

    /// The question, one sentence.
    public var question: String
    /// What to run if the person says yes (the best reading first); empty when a slot is missing.
    public var options: [Option]
    /// The parameter the person must still give ("content" for "remember" with nothing after it), if any.
    public var missing: String?
    /// The intent asked about (a missing slot's, or the best reading's).
    public var intent: IntentName?
    /// Why Engram asks: to confirm a reading that is not clear enough, for a missing slot, or a guess from shared words.
    public var reason: Reason
    /// For a missing slot: what was already said ("new idea" gives `type = idea`).
    public var given: [String: String] = [:]

    public enum Reason: String, Sendable, Codable {
        case confirm, missing, guess
    }

    init(question: String, options: [IntentInvocation], missing: String? = nil, intent: IntentName? = nil, reason: Reason = .confirm) {
        self.question = question
        self.options = options.map { Option(intent: $0.name, arguments: $0.arguments, label: $0.label, commandID: $0.commandID) }
        self.missing = missing
        self.intent = intent ?? options.first?.name
        self.reason = missing != nil ? .missing : reason
    }

    /// The options as a result's follow-ups: buttons on a notification, choices in a prompt.
    public var followUps: [FollowUp] {
        options.enumerated().map { i, o in FollowUp(id: "option-\(i + 1)", label: o.label, intent: o.intent, arguments: o.arguments) }
    }
}

/// Reads spoken-style requests ("take five", "jot down that …", "I'm done for today") with rules per intent, each
/// reading scored, and decides, as Home Assistant's hassil does with its templates, but never guessing on a change:
/// a state-changing intent runs only when its reading is strong (`changeConfidence`) and clearly ahead of any other
/// (`changeMargin`); otherwise Engram asks. Read-only intents run on a weaker reading. A capture never runs with an
/// empty slot.
///
/// The thresholds were set on the tuning half of `Tests/IntentsTests/Golden/phrases-tuning.jsonl`; the held-out
/// half is the test (docs/intents-and-voice.md, "How well it understands", reports both).
public struct IntentUnderstanding: Sendable {
    /// A state-changing intent runs from words at this score or more…
    public static let changeConfidence = 0.85
    /// …and this far ahead of the best reading of another intent.
    public static let changeMargin = 0.2
    /// A read-only intent runs at this score or more.
    public static let readConfidence = 0.6
    /// A template of the catalog or the person's config, matched whole.
    static let templateScore = 0.9
    /// Requests for something Engram does not do, whatever words they share with its intents.
    static let elsewhere = try! NSRegularExpression(pattern: #"\b(?:the web|online|on google|the internet|wikipedia|youtube|reddit|amazon|stack overflow|weather|music|translate|calendar|inbox|e-?mails?|downloads?|playlist)\b|\b(?:this|that) (?:article|page|web ?page|email|video|document|pdf|link|tab)\b"#, options: [.caseInsensitive])

    let matcher: PhraseMatcher
    /// What the person's store holds: a state-changing reading must name things that exist before it runs.
    let known: KnownNames?

    /// Understanding over `matcher`'s templates (the catalog's and the person's own) and the spoken-style rules; with
    /// `known`, a state-changing reading that names a curriculum, topic or memory the store does not have asks.
    public init(matcher: PhraseMatcher = PhraseMatcher(), known: KnownNames? = nil) {
        self.matcher = matcher
        self.known = known
    }

    /// One reading: an intent, its arguments, and how sure the rule that made it is.
    public struct Reading: Sendable, Equatable {
        public var invocation: IntentInvocation
        public var score: Double
    }

    /// Every reading of `said`, best first (one per intent: its best).
    public func readings(_ said: String) -> [Reading] {
        let original = Self.stripLeadIns(PhraseMatcher.normalize(said))
        var best: [IntentName: Reading] = [:]
        func offer(_ r: Reading) {
            if let b = best[r.invocation.name], b.score >= r.score { return }
            best[r.invocation.name] = r
        }
        for rule in SpokenRules.all {
            guard let found = rule.read(original) else { continue }
            offer(found)
        }
        // The templates (catalog and config): strong, but a rule that reads the wording more closely wins ("note to
        // self" is a capture with nothing in it, not one of "to self").
        if let exact = try? matcher.match(original) { offer(Reading(invocation: exact, score: Self.templateScore)) }
        if let exact = try? matcher.match(said) { offer(Reading(invocation: exact, score: Self.templateScore)) }
        // Slot values as people say them: "my notes on tax deadlines" is about "tax deadlines".
        return best.values.map { r in
            var r = r
            for key in ["query", "topic"] { if let v = r.invocation.arguments[key] { r.invocation.arguments[key] = SpokenRules.subject(v) } }
            for key in ["curriculum", "content"] { if let v = r.invocation.arguments[key] { r.invocation.arguments[key] = SpokenRules.trimmed(v) } }
            SpokenSlots.tidy(&r.invocation.arguments, for: r.invocation.name, said: original)
            return r
        }.sorted { ($0.score, $1.invocation.name.rawValue) > ($1.score, $0.invocation.name.rawValue) }
    }

    /// What to do about `said`.
    public func understand(_ said: String) -> Understood {
        let normalized = PhraseMatcher.normalize(said)
        if Self.elsewhere.firstMatch(in: normalized, range: NSRange(normalized.startIndex..., in: normalized)) != nil {
            return .none(phrase: normalized, closest: nil)
        }
        let all = readings(said)
        guard let top = all.first else {
            // Nothing reads it, but it shares words with an intent: ask whether that was meant, never run it.
            guard let (name, template) = matcher.closest(to: said) else { return .none(phrase: normalized, closest: nil) }
            let def = IntentCatalog.definition(name)
            let guess = IntentInvocation(name)
            let options = (try? guess.resolved()) != nil ? [guess] : []
            return .ask(Clarification(question: "Did you mean \(def.title.lowercased())? For example “\(template)”.", options: options,
                                      intent: name, reason: .guess))
        }
        let def = IntentCatalog.definition(top.invocation.name)
        // A required slot left empty ("remember", "let's study"): ask for it, whatever the intent.
        if let missing = def.parameters.first(where: { $0.isRequired && (top.invocation.arguments[$0.name] ?? "").trimmingCharacters(in: .whitespaces).isEmpty }) {
            var c = Clarification(question: Self.question(for: missing, of: def), options: [], missing: missing.name, intent: def.name)
            c.given = top.invocation.arguments.filter { !$0.value.trimmingCharacters(in: .whitespaces).isEmpty }
            return .ask(c)
        }
        guard (try? top.invocation.resolved()) != nil else {
            return .ask(Clarification(question: "\(def.title)? Some of what you said does not fit it.", options: [top.invocation]))
        }
        let runnerUp = all.dropFirst().first?.score ?? 0
        let clear: Bool
        switch def.effect {
        case .readOnly: clear = top.score >= Self.readConfidence && top.score - runnerUp > 0
        case .changesState: clear = top.score >= Self.changeConfidence && top.score - runnerUp >= Self.changeMargin
        case .erases:
            // Words never erase: say how, with the memory named.
            let id = top.invocation.arguments["memory"] ?? "ID"
            return .ask(Clarification(question: "Forgetting cannot be undone, so words alone never do it: run `engram forget \(id)` (it asks to confirm).",
                                      options: [], intent: .forgetMemory))
        }
        if clear, def.effect == .changesState, let known {
            switch known.check(top.invocation) {
            case .fine(let invocation): return .run(invocation, confidence: top.score)
            case .ask(let c): return .ask(c)
            }
        }
        if clear { return .run(top.invocation, confidence: top.score) }
        let options = all.prefix(3).filter { (try? $0.invocation.resolved()) != nil }.map(\.invocation)
        return .ask(Clarification(question: Self.question(for: top.invocation), options: options))
    }

    /// "Pause the session?", "Remember “buy milk”?", "Start studying Swift Concurrency?".
    public static func question(for invocation: IntentInvocation) -> String {
        let def = IntentCatalog.definition(invocation.name)
        switch invocation.name {
        case .storeMemory: return "Remember “\(IntentInvocation.oneLine(invocation.arguments["content"] ?? ""))”?"
        case .startSession: return "Start studying \(invocation.arguments["curriculum"] ?? "")?"
        case .pauseSession: return "Pause the session?"
        case .resumeSession: return "Resume the session?"
        case .stopSession: return "Stop the session?"
        default: return invocation.label + "?" + (def.effect == .readOnly ? "" : "")
        }
    }

    /// "What should I remember?", "Which curriculum?".
    static func question(for p: IntentParameter, of def: IntentDefinition) -> String {
        switch (def.name, p.name) {
        case (.storeMemory, "content"): "What should I remember?"
        case (_, "curriculum"): "Which curriculum?"
        case (_, "topic") where def.name == .openTopic: "Which topic?"
        case (_, "topic"): "Which subject?"
        case (_, "memory"): "Which memory?"
        case (_, "query"): "What should I look for?"
        default: "\(def.title): \(p.summary)"
        }
    }

    /// Takes off what people put before a request: "hey engram,", "ok", "could you", "please", "I want to".
    static func stripLeadIns(_ text: String) -> String {
        var t = text
        let leadIns = try! NSRegularExpression(pattern: #"^(?:hey engram|hey|hi|engram|ok(?:ay)?|alright|all right|so|um+|please|could you|can you|would you|will you|can we|could we|i want to|i wanna|i'?d like to|i would like to|go ahead and|just|quickly)\b[,:!]?\s*"#, options: [.caseInsensitive])
        while let m = leadIns.firstMatch(in: t, range: NSRange(t.startIndex..., in: t)), m.range.length > 0,
              let r = Range(m.range, in: t), r.upperBound < t.endIndex {
            t = String(t[r.upperBound...])
        }
        let trailers = try! NSRegularExpression(pattern: #"[,\s]+(?:please|pls|plz|for me|thanks|thank you|thx|ty)$"#, options: [.caseInsensitive])
        if let m = trailers.firstMatch(in: t, range: NSRange(t.startIndex..., in: t)), let r = Range(m.range, in: t) {
            t = String(t[..<r.lowerBound])
        }
        return t.trimmingCharacters(in: .whitespaces)
    }
}

/// The names a person's store holds, to check a state-changing reading against before it runs: "study charts" names
/// no curriculum, "pin s999" no memory, so Engram asks instead of failing or guessing.
public struct KnownNames: Sendable {
    public var curricula: [(id: String, title: String)]
    public var topics: [(id: String, title: String, curriculumID: String)]
    public var memoryExists: @Sendable (String) -> Bool

    public init(curricula: [(id: String, title: String)], topics: [(id: String, title: String, curriculumID: String)],
                memoryExists: @escaping @Sendable (String) -> Bool) {
        self.curricula = curricula
        self.topics = topics
        self.memoryExists = memoryExists
    }

    /// The names in `store`, read now (curricula and topics are few; memories are looked up one at a time).
    public init(store: Store) throws {
        curricula = try store.curricula().map { ($0.id, $0.title) }
        topics = try store.allTopics().map { ($0.id, $0.title, $0.curriculumID) }
        memoryExists = { id in ((try? store.memory(id: id)) ?? nil) != nil }
    }

    enum Verdict {
        case fine(IntentInvocation)
        case ask(Clarification)
    }

    /// The curriculum ids `text` names, by `Resolve`'s rule (an id, a title, or words of one).
    func curricula(named text: String) -> [String] { Resolve.ids(text, among: curricula.map { ($0.id, $0.title) }) }

    func topics(named text: String, in curriculumID: String?) -> [String] {
        Resolve.ids(text, among: topics.filter { curriculumID == nil || $0.curriculumID == curriculumID }.map { ($0.id, $0.title) })
    }

    /// Whether `invocation`'s names exist; a topic and curriculum said the other way round are put right.
    func check(_ invocation: IntentInvocation) -> Verdict {
        var inv = invocation
        if let c = inv.arguments["curriculum"], !c.isEmpty {
            var found = curricula(named: c)
            if found.count != 1, let t = inv.arguments["topic"], !t.isEmpty, curricula(named: t).count == 1 {
                // "study Sendable from Swift Concurrency" read the other way round.
                inv.arguments["curriculum"] = t
                inv.arguments["topic"] = c
                found = curricula(named: t)
            }
            guard found.count == 1 else {
                let options = curricula.prefix(5).map { IntentInvocation(inv.name, ["curriculum": $0.id]) }
                let known = curricula.map(\.title).joined(separator: ", ")
                return .ask(Clarification(question: "Which curriculum? “\(c)” is not one of yours" + (known.isEmpty ? "." : " (\(known))."),
                                          options: Array(options), intent: inv.name))
            }
            if let t = inv.arguments["topic"], !t.isEmpty, topics(named: t, in: found[0]).count != 1 {
                var without = inv
                without.arguments["topic"] = nil
                return .ask(Clarification(question: "“\(t)” is not a topic of \(c). \(IntentUnderstanding.question(for: without))",
                                          options: [without], intent: inv.name))
            }
        }
        if let m = inv.arguments["memory"], !m.isEmpty, !memoryExists(m) {
            var c = Clarification(question: "Which memory? There is no memory “\(m)”.", options: [], missing: "memory", intent: inv.name)
            c.given = inv.arguments.filter { $0.key != "memory" && !$0.value.isEmpty }
            return .ask(c)
        }
        return .fine(inv)
    }
}
