import EngramCore
import Foundation

/// Slot values checked for the shape their parameter needs, after a rule has read them: a reading whose slot holds
/// the wrong kind of thing asks instead of running. "pin it" names no memory, so Engram asks which; "untag linux from
/// s200" has the id and the tag the other way round; "summary of git, last 7 days" is about git, over a week.
enum SpokenSlots {
    /// Words that point at something without naming it: a slot holding only these is empty.
    static let pointers: Set<String> = ["it", "this", "that", "them", "these", "those", "one", "this one", "that one", "the", "a", "my", "some"]

    /// Whether `token` has the shape of a memory id: Engram's made ids (10 letters of its alphabet) or ids with a digit
    /// ("s004", "23", imported "vault-17"); an English word ("linux", "view") is not one.
    static func isMemoryID(_ token: String) -> Bool {
        let t = token.lowercased()
        guard !t.isEmpty, t.count <= 64, t.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else { return false }
        if t.contains(where: \.isNumber) { return true }
        return t.count >= 8 && Identifier.isMade(t)
    }

    /// The one memory id in `value` ("s045 so I never lose it" → s045, "view for s088" → s088), if there is exactly one.
    static func memoryID(in value: String) -> String? {
        let tokens = value.split(whereSeparator: { $0.isWhitespace || ",.;:!?#".contains($0) }).map(String.init)
        let ids = tokens.filter(isMemoryID)
        return ids.count == 1 ? ids[0] : nil
    }

    /// A time range said inside a subject: ", last 7 days", "over the last 30 days", "across all time", "this week".
    static let rangeInSubject = try! NSRegularExpression(pattern: #"[,\s]+(?:(?:over|across|from|for|in|during|within)\s+)?(?:the\s+)?(?:(?:past|last)\s+(?<n>\d+|seven|thirty|7|30|365)\s+days|(?:past|last|this)\s+(?<unit>week|month|year)|(?<today>today)|(?<all>all(?:[\s-]+time)|of all time|ever))\s*$"#, options: [.caseInsensitive])
    /// What people put before a subject: "anything mentioning", "what I captured on", "stuff about".
    static let subjectLeadIn = try! NSRegularExpression(pattern: #"^(?:(?<allTime>all[- ]time) (?:notes?|memories|stuff) (?:about|on)|(?:the\s+)?(?:top\s+)?\d+\s+(?:memories|notes)\s+(?:mentioning|about|on)|memories\s*:|mentioning|that mentions?|what i'?ve got (?:on|about)|(?:everything|all|what) i(?:'ve| have)?(?<ever> ever)? (?:written|noted|wrote|saved|captured|learned|jotted down|kept) (?:about|on|regarding)|(?:anything|everything|something|stuff|notes?|memories)\s+(?:mentioning|that mentions?|about|on|regarding|related to)|what i (?:captured|noted|wrote|saved|jotted(?: down)?|learned|have) (?:on|about|regarding)|mentions of)\s+"#, options: [.caseInsensitive])
    /// "sendable in swift concurrency", "the subjunctive from spanish-b1".
    static let topicInCurriculum = try! NSRegularExpression(pattern: #"^(?:the\s+)?(.+?)\s+(?:in|from|of)\s+(?:the\s+|my\s+)?(.+)$"#, options: [.caseInsensitive])
    /// What is left of a range said after a subject ("across"), and words after a subject that are not it ("stuff").
    static let contentLeadIn = try! NSRegularExpression(pattern: #"^(?:for me\s*(?:[,:—-]\s*|that\s+)|that\s+|an? (?:note|learning|idea|task|quote)\s*(?:that\s+|[:,—-]\s*)|(?:this )?quote\s*[:—-]\s*)"#, options: [.caseInsensitive])
    /// "a learning: …", "an idea that …": the type said before the content.
    static let typedLabel = try! NSRegularExpression(pattern: #"^an? (note|learning|idea|task|quote)\s*(?:that\s+|[:,—-])"#, options: [.caseInsensitive])
    /// An export's format and file, wherever the request says them.
    static let exportFormat = try! NSRegularExpression(pattern: #"(?<![./\w])(json|markdown|md)\b(?![./])"#, options: [.caseInsensitive])
    static let exportPath = try! NSRegularExpression(pattern: #"(?:^|\s)([~/][^\s,]*)"#)
    static let limitInSubject = try! NSRegularExpression(pattern: #"[,\s]+(?:top|just|max|at most|only)\s+(?<n>\d+)\s*$"#, options: [.caseInsensitive])
    static let dangling = try! NSRegularExpression(pattern: #"\s+(?:across|over|for|from|in|during|within)$"#, options: [.caseInsensitive])
    static let subjectWrappingEnd = try! NSRegularExpression(pattern: #"\s+(?:stuff|notes|things|memories|in my (?:notes|memories)|in my)(?:\s+for me)?(?:,\s*just the (?:key points|highlights|gist|main points))?$|,\s*just the (?:key points|highlights|gist|main points)$"#, options: [.caseInsensitive])
    static let tagSeparators = CharacterSet(charactersIn: ",;")
    /// "swift concurrency, task groups", "swift concurrency on actors".
    static let curriculumThenTopic = try! NSRegularExpression(pattern: #"^(.+?)(?:,\s*|\s+on\s+(?:the\s+)?)(?!(?:a|the) (?:bit|while)\b)(.+?)(?:\s+topic)?$"#, options: [.caseInsensitive])
    /// A request for linked memories at the end of a search: "? include the related ones too", "plus linked notes".
    static let relatedTail = try! NSRegularExpression(pattern: #"[?,.\s]+(?:and\s+|plus\s+|with\s+|also\s+)?(?:include\s+|including\s+|show\s+|add\s+)?(?:the\s+|any\s+)?(?:related|linked)(?:\s+ones|\s+memories|\s+notes)?(?:\s+too|\s+as well)?\s*$"#, options: [.caseInsensitive])
    /// Words around a curriculum or topic's name: "the spanish course", "some spanish", "the async/await topic".
    static let nameWrapping = try! NSRegularExpression(pattern: #"^(?:(?:the|my|some|a|this|that)\s+)+|\s+(?:course|curriculum|topic|lesson|chapter|class)$"#, options: [.caseInsensitive])

    /// Tidies `args` for `intent` in place; a slot that holds nothing usable is removed, so the reading asks for it.
    static func tidy(_ args: inout [String: String], for intent: IntentName, said: String = "") {
        let def = IntentCatalog.definition(intent)
        if intent == .exportProgress {
            let range = NSRange(said.startIndex..., in: said)
            if args["format"] == nil, let m = exportFormat.firstMatch(in: said, range: range), let r = Range(m.range(at: 1), in: said) {
                let f = said[r].lowercased()
                args["format"] = f == "md" ? "markdown" : f
            }
            if args["path"] == nil, let m = exportPath.firstMatch(in: said, range: range), let r = Range(m.range(at: 1), in: said) {
                args["path"] = SpokenRules.trimmed(String(said[r]))
            }
        }
        // "start studying sendable in swift concurrency": a topic, then the curriculum it belongs to.
        if intent == .startSession, args["topic"] == nil, let c = args["curriculum"] {
            if let m = curriculumThenTopic.firstMatch(in: c, range: NSRange(c.startIndex..., in: c)),
               let cu = Range(m.range(at: 1), in: c), let t = Range(m.range(at: 2), in: c) {
                // "swift concurrency, task groups", "swift concurrency on actors".
                args["curriculum"] = String(c[cu])
                args["topic"] = String(c[t])
            } else if let m = topicInCurriculum.firstMatch(in: c, range: NSRange(c.startIndex..., in: c)),
                      let t = Range(m.range(at: 1), in: c), let cu = Range(m.range(at: 2), in: c) {
                args["topic"] = String(c[t])
                args["curriculum"] = String(c[cu])
            }
        }
        for p in def.parameters {
            guard let value = args[p.name] else { continue }
            switch p.kind {
            case .memory:
                if let id = memoryID(in: value) {
                    args[p.name] = id
                } else if let swap = ["add", "remove"].first(where: { args[$0].flatMap(memoryID(in:)) != nil }),
                          let id = args[swap].flatMap(memoryID(in:)) {
                    // "untag linux from s200": the words were read into each other's slots.
                    args[swap] = value
                    args[p.name] = id
                } else {
                    args[p.name] = nil
                }
            case .curriculum, .topic:
                var v = value
                while let m = nameWrapping.firstMatch(in: v, range: NSRange(v.startIndex..., in: v)), m.range.length > 0,
                      let r = Range(m.range, in: v) {
                    v.removeSubrange(r)
                    v = v.trimmingCharacters(in: .whitespaces)
                }
                args[p.name] = v.isEmpty || pointers.contains(v.lowercased()) ? nil : v
            case .text where ["topic", "query"].contains(p.name):
                var v = value
                if def.parameter("range") != nil, args["range"] == nil,
                   let m = rangeInSubject.firstMatch(in: v, range: NSRange(v.startIndex..., in: v)), let r = Range(m.range, in: v) {
                    args["range"] = Self.range(m, in: v)
                    v = String(v[..<r.lowerBound])
                }
                if def.parameter("includeRelated") != nil,
                   let m = relatedTail.firstMatch(in: v, range: NSRange(v.startIndex..., in: v)), let r = Range(m.range, in: v) {
                    args["includeRelated"] = "true"
                    v = String(v[..<r.lowerBound])
                }
                if p.name == "query", let m = limitInSubject.firstMatch(in: v, range: NSRange(v.startIndex..., in: v)), let r = Range(m.range, in: v),
                   let n = Range(m.range(withName: "n"), in: v) {
                    // "running training, top 5", "git, just 2".
                    if args["limit"] == nil { args["limit"] = String(v[n]) }
                    v = String(v[..<r.lowerBound])
                }
                if let m = subjectLeadIn.firstMatch(in: v, range: NSRange(v.startIndex..., in: v)), let r = Range(m.range, in: v) {
                    if m.range(withName: "ever").location != NSNotFound || m.range(withName: "allTime").location != NSNotFound, def.parameter("range") != nil, args["range"] == nil { args["range"] = "all" }
                    v = String(v[r.upperBound...])
                }
                // "my GNOME stuff": the subject is "GNOME"; "summarize actors across all time": "actors".
                if let m = dangling.firstMatch(in: v, range: NSRange(v.startIndex..., in: v)), let r = Range(m.range, in: v), args["range"] != nil {
                    let rest = v.replacingCharacters(in: r, with: "").trimmingCharacters(in: .whitespaces)
                    if !rest.isEmpty { v = rest }
                }
                if let m = subjectWrappingEnd.firstMatch(in: v, range: NSRange(v.startIndex..., in: v)), let r = Range(m.range, in: v) {
                    let rest = v.replacingCharacters(in: r, with: "").trimmingCharacters(in: .whitespaces)
                    if !rest.isEmpty { v = rest }
                }
                v = SpokenRules.trimmed(v)
                args[p.name] = v.isEmpty || pointers.contains(v.lowercased()) ? nil : v
            case .text where p.name == "content":
                var value = value
                // "store this for me, the key is …", "a note: …", "quote: "dum spiro spero"": the content is what follows.
                while let m = contentLeadIn.firstMatch(in: value, range: NSRange(value.startIndex..., in: value)), m.range.length > 0,
                      let r = Range(m.range, in: value), r.upperBound < value.endIndex {
                    value = String(value[r.upperBound...])
                }
                for (open, close) in [("\"", "\""), ("“", "”"), ("'", "'"), ("«", "»")]
                where value.count > 2 && value.hasPrefix(open) && value.hasSuffix(close) {
                    value = String(value.dropFirst().dropLast())
                }
                if args["type"] == nil, let m = typedLabel.firstMatch(in: args[p.name] ?? "", range: NSRange((args[p.name] ?? "").startIndex..., in: args[p.name] ?? "")),
                   let r = Range(m.range(at: 1), in: args[p.name] ?? "") {
                    args["type"] = String((args[p.name] ?? "")[r]).lowercased()
                }
                args[p.name] = value
                if pointers.contains(value.lowercased()) { args[p.name] = nil }
                // "add a task to renew the cron job": the task is "renew the cron job".
                if args["type"] == "task", value.lowercased().hasPrefix("to "), value.count > 3 { args[p.name] = String(value.dropFirst(3)) }
            case .text where p.name == "add" || p.name == "remove":
                // "running, training", "old and wip": one tag list, as the store keeps it.
                let tags = value.components(separatedBy: tagSeparators).flatMap { $0.split(whereSeparator: \.isWhitespace) }
                    .map { SpokenRules.trimmed(String($0)) }.filter { !$0.isEmpty && $0.lowercased() != "and" }
                args[p.name] = tags.isEmpty ? nil : tags.joined(separator: ",")
            default:
                continue
            }
        }
    }

    static func range(_ m: NSTextCheckingResult, in v: String) -> String {
        func group(_ name: String) -> String? {
            let r = m.range(withName: name)
            return r.location == NSNotFound ? nil : Range(r, in: v).map { String(v[$0]).lowercased() }
        }
        if let n = group("n") { return ["7": "week", "seven": "week", "30": "month", "thirty": "month", "365": "year"][n] ?? "all" }
        if let unit = group("unit") { return unit }
        if group("today") != nil { return "today" }
        return "all"
    }
}
