import Foundation

/// The spoken-style rules `IntentUnderstanding` reads requests with: per intent, patterns over the request (lead-ins
/// already taken off), each with a score for how surely it means that intent. Named groups fill the slots
/// (`content`, `query`, `topic`, `curriculum`, `memory`, `limit`, `depth`, `range`, `format`, `path`); `fixed` adds
/// what the wording itself says (`type = task` for "remind me to …").
///
/// Scores: 0.95 for wording that says the intent outright ("jot down that …", "I'm done for today"), 0.9 for a
/// strong idiom ("take five", "back at it"), 0.7 for a keyword reading, 0.5 for a word that could mean several
/// things (a bare "stop"). State-changing intents need 0.85 and a clear lead to run (`IntentUnderstanding`).
enum SpokenRules {
    struct Rule: Sendable {
        var intent: IntentName
        var score: Double
        var regex: NSRegularExpressionBox
        var fixed: [String: String]
        /// A pattern whose match means it is not this intent after all (a question, the web).
        var unless: NSRegularExpressionBox?
        /// The pattern's named groups (asking a regular expression for a group it lacks is an error).
        var groups: Set<String>

        func read(_ text: String) -> IntentUnderstanding.Reading? {
            let range = NSRange(text.startIndex..., in: text)
            if let unless, unless.value.firstMatch(in: text, range: range) != nil { return nil }
            guard let m = regex.value.firstMatch(in: text, range: range) else { return nil }
            var args = fixed
            for slot in SpokenRules.slots where groups.contains(slot) {
                let r = m.range(withName: slot)
                guard r.location != NSNotFound, let sr = Range(r, in: text) else { continue }
                let value = String(text[sr]).trimmingCharacters(in: .whitespaces)
                if !value.isEmpty { args[slot] = value }
            }
            for (alt, slot) in SpokenRules.alternates where groups.contains(alt) {
                let r = m.range(withName: alt)
                if r.location != NSNotFound, let sr = Range(r, in: text) { args[slot] = String(text[sr]) }
            }
            for name in groups where ["limit2", "related", "direct", "rangeAll"].contains(name) {
                let r = m.range(withName: name)
                guard r.location != NSNotFound else { continue }
                switch name {
                case "limit2": if let sr = Range(r, in: text) { args["limit"] = String(text[sr]) }
                case "related": args["includeRelated"] = "true"
                case "rangeAll": args["range"] = "all"
                default: args["depth"] = "1"
                }
            }
            if let type = args["type"]?.lowercased() { args["type"] = SpokenRules.typeWords[type] ?? type }
            if let r = args["range"]?.lowercased() { args["range"] = ["7 days": "week", "30 days": "month"][r] ?? r }
            if let n = args["limit"] { args["limit"] = SpokenRules.number(n) }
            if let n = args["depth"] { args["depth"] = SpokenRules.number(n) }
            if let f = args["format"]?.lowercased() { args["format"] = f == "md" ? "markdown" : f }
            return .init(invocation: IntentInvocation(intent, args), score: score)
        }
    }

    static let slots = ["content", "query", "topic", "curriculum", "memory", "limit", "depth", "range", "format", "path", "type", "add", "remove", "pinned"]
    /// Second groups for a slot (one pattern with two shapes): `curriculum2` fills `curriculum`.
    static let alternates = ["curriculum2": "curriculum", "memory2": "memory"]
    static let typeWords = ["todo": "task", "to-do": "task", "reminder": "task", "thought": "note", "lesson": "learning", "til": "learning"]

    static func number(_ s: String) -> String {
        let words = ["one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
                     "twenty": 20, "fifty": 50, "a dozen": 12, "dozen": 12]
        return words[s.lowercased()].map(String.init) ?? s
    }

    static func rule(_ intent: IntentName, _ score: Double, _ pattern: String, _ fixed: [String: String] = [:], unless: String? = nil) -> Rule {
        func compile(_ p: String) -> NSRegularExpressionBox {
            NSRegularExpressionBox(try! NSRegularExpression(pattern: p, options: [.caseInsensitive]))
        }
        let names = try! NSRegularExpression(pattern: #"\(\?<([A-Za-z][A-Za-z0-9]*)>"#)
        let groups = Set(names.matches(in: pattern, range: NSRange(pattern.startIndex..., in: pattern)).compactMap {
            Range($0.range(at: 1), in: pattern).map { String(pattern[$0]) }
        })
        return Rule(intent: intent, score: score, regex: compile(pattern), fixed: fixed, unless: unless.map(compile), groups: groups)
    }

    // Pieces the patterns share.
    static let range = #"(?:[,\s]+(?:for me[,\s]+)?(?:just\s+)?(?:for|from|over|in|during)?\s*(?:the\s+past\s+|the\s+last\s+|the\s+|this\s+|past\s+|last\s+)?(?:(?<range>today|week|month|year|7 days|30 days)|(?<rangeAll>all[- ]?time|since i (?:started|began)|ever|so far|overall|in total))(?:'s)?(?:\s+(?:stuff|notes))?)?"#
    static let question = #"^(?:what|when|where|how|who|which|did|do|does|is|are|was|were|have|has|any)\b|\?$"#
    static let notes = #"(?:my\s+)?(?:notes?|memories|memory|stuff|things|everything|anything|something)"#

    /// A memory as people name one: "memory 42", "note 17", "number 23", "s004".
    static let memoryRef = #"(?:memory|note|number|item|#)\s*(?<memory>[\w-]+)"#
    /// How far a graph goes: "three links deep", "go 4 levels out", "just the direct links".
    static let depth = #"(?:.*?\b(?:(?<depth>\d+|one|two|three|four|five) (?:links?|levels?|hops?|steps?)(?: deep| out| away)?|just the (?<direct>direct) links))?"#
    /// A format and a place for an export: "as JSON", "in markdown", "to ~/Documents/progress.json".
    static let exportTo = #"(?=(?:.*?(?<![./\w])(?<format>json|markdown|md)\b(?![./]))?)(?=(?:.*?(?:\b(?:to|in|into)\s+|\s)(?<path>[~/][^\s,]*))?)"#
    /// A curriculum and where in it to start: "rust ownership starting at borrowing", "swift, topic actors".
    static let studyTarget = #"(?<curriculum>.+?)(?:,?\s+(?:starting (?:at|from|with)|from|at|topic)\s+(?:the\s+)?(?<topic>.+?)(?:\s+topic)?)?(?:\s+(?:for a (?:bit|while)|now|today|again))?"#

    static let all: [Rule] = [
        // StoreMemory: a capture says so up front; a question about the past is a search, not a capture. Typed
        // captures first, so "save this quote: …" is a quote and "remember to …" a task.
        rule(.storeMemory, 0.95, #"^(?:remind me to|remember to|don'?t let me forget to|i need to remember to|add (?:a )?task|todo|to-do|task)\s*[:,]?\s+(?<content>.+)$"#, ["type": "task"],
             unless: #"\b(?:at \d{1,2}(?::\d\d)?\s*(?:am|pm)?|at (?:noon|midnight)|tomorrow|tonight|this (?:evening|afternoon|morning)|in \d+ (?:min|minute|hour|day)s?|on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b"#),
        rule(.storeMemory, 0.95, #"^put (?<content>.+?) on (?:my|the) (?:to-?do|task) list$"#, ["type": "task"]),
        rule(.storeMemory, 0.96, #"^(?:i (?:just )?had an idea|i have an idea|here'?s an idea|new idea|an idea|idea|(?:capture|save|store|note|jot down|remember) (?:an |this |my )?idea)\s*[:,;—-]?\s+(?<content>.+)$"#, ["type": "idea"]),
        rule(.storeMemory, 0.95, #"^(?:i (?:just )?learned|today i learned|i found out|learned|til)(?:\s+today)?(?:\s+that)?\s*[:,]?\s+(?<content>.+)$"#, ["type": "learning"]),
        rule(.storeMemory, 0.96, #"^(?:quote of the day|(?:save|remember|store|capture|keep) (?:a |this )?quote|here'?s a quote(?: (?:i (?:like|love)|for you|worth keeping))?|quote)\s*[:,;—-]?\s+(?<content>.+)$"#, ["type": "quote"]),
        rule(.storeMemory, 0.95, #"^(?:note to self|make a note|take a note|add a note|add to my notes|for the record|jot(?: this| it)? down|write(?: this| it)? down|keep in mind|keep this in mind|remember|remeber|rember|save(?: this)?|store(?: this)?|capture(?: this)?|save a note|store a note|note|log(?=\s*[:—-]|\s+that\b))(?:\s+(?:that|this))?\s*[:,;—-]?\s+(?:a note\s+(?:that\s+)?|note\s*:\s*)?(?<content>.+)$"#,
             unless: #"^(?:remember|note)\s+(?:what|when|where|how|who|whether|if|anything|something)\b|\bprogress\b|^note \d+\b"#),
        rule(.storeMemory, 0.95, #"^(?:don'?t let me forget|i need to remember|i want to remember|i should remember|make sure i remember)(?:\s+that)?\s+(?<content>.+)$"#),
        // A capture announced but not said: ask what.
        rule(.storeMemory, 1.0, #"^(?:remember|note to self|jot (?:this |it )?down|write (?:this |it )?down|make a note|take a note|remember (?:something|this)(?: for me)?|note|save (?:a )?note)[.:!]*$"#),
        rule(.storeMemory, 1.0, #"^(?:new idea|i have an idea|an idea|idea)[.:!]*$"#, ["type": "idea"]),

        // QueryMemory: asking what is kept.
        rule(.queryMemory, 0.95, #"^what (?:do|did|have) i (?:know|have|keep|kept|write|wrote|written|note|noted|save|saved|jot|jotted)(?: down)?(?: about| on| regarding)\s+(?<query>.+?)(?:,?\s+(?<related>and|plus|with) (?:anything|everything|stuff|the ones?) (?:related|linked)(?: to it)?)?$"#),
        rule(.queryMemory, 0.9, #"^(?:look up|look for|search(?: for)?|search my (?:notes|memories) for|find(?: me)?|recall(?: everything)?(?: about)?|dig up|pull up|fetch|get|show me|give me)\s+(?:the\s+)?(?:(?:top\s+)?(?<limit>\d+)\s+)?(?:(?:my\s+)?(?:notes?|memories|stuff|things|everything|anything|what i (?:noted|wrote|saved|have|know))\s+)?(?:about|on|for|regarding)\s+(?<query>.+?)(?:,?\s+(?<limit2>\d+) at most)?(?:,?\s+(?<related>plus|and|with) (?:the )?related(?: ones)?)?$"#,
             unless: #"\b(?:the web|online|on google|the internet|wikipedia|curriculum|course|sessions?|history|graph|network|count)\b|\b(?:related|similar) to\s+[\w-]*\d|\babout to (?:forget|fade)\b|^(?:get rid of|delete|erase|remove|wipe|forget)\b|^(?:show|give) me (?:my |the )?(?:stats|numbers|progress|analytics|connections|link graph|summary|overview|gist)\b|^(?:pull up|show me|get) the (?:topic|lesson)\b|^show me my learning\b"#),
        rule(.queryMemory, 0.7, #"^(?:look up|look for|search(?: for)?|search my (?:notes|memories) for|find(?: me)?|recall(?: everything)?(?: about)?|dig up|pull up|fetch|get|show me|give me)\s+(?:the\s+)?(?:(?:top\s+)?(?<limit>\d+)\s+)?(?:(?:my\s+)?(?:notes?|memories|stuff|things|everything|anything|what i (?:noted|wrote|saved|have|know))\s+)?(?<query>.+?)(?:,?\s+(?<limit2>\d+) at most)?(?:,?\s+(?<related>plus|and|with) (?:the )?related(?: ones)?)?$"#,
             unless: #"\b(?:the web|online|on google|the internet|wikipedia|curriculum|course|sessions?|history|review|stats|numbers|analytics|progress|gist|summary|graph|network|count)\b|\b(?:related|similar) to\s+[\w-]*\d|\babout to (?:forget|fade)\b|^(?:get rid of|delete|erase|remove|wipe|forget)\b|^(?:pull up|show me|get) the (?:topic|lesson)\b|^show me my learning\b"#),
        rule(.queryMemory, 0.9, #"^(?:is there|are there|do i have|have i got|any|anything)\s+(?:anything|something|notes?|memories)?\s*(?:saved\s+|written\s+|noted\s+)?(?:in my (?:notes|memories)\s+)?(?:about|on|regarding|for)\s+(?<query>.+?)(?:,?\s+(?<related>and|plus|with) (?:stuff|anything|things|everything) (?:related|linked)(?: to it)?)?$"#),
        rule(.queryMemory, 0.95, #"^(?:do you |can you )?remember\s+(?:what|when|where|how|who|whether|if|anything|something)\b.*?\b(?:about|on|regarding)\s+(?<query>.+)$"#),
        rule(.queryMemory, 0.95, #"^do you (?:remember|recall|know) (?<query>.+)$"#),
        rule(.queryMemory, 0.95, #"^(?:didn'?t|did|have) i (?:write|note|save|jot|keep)(?: something| anything)?(?: down)?\s+(?:about|on|regarding)\s+(?<query>.+)$"#),
        rule(.queryMemory, 0.9, #"^(?:can you |could you )?look up what i (?:noted|wrote|saved|know)(?: down)? (?:about|on)\s+(?<query>.+)$"#),
        rule(.queryMemory, 0.9, #"^what was (?:that|the) (?:thing|note|stuff|bit) (?:about|on) (?<query>.+)$"#),

        // SummarizeTopic: the topicless form first ("summarize this week" has no subject).
        rule(.summarizeTopic, 0.95, #"^(?:sum up|summari[sz]e|recap)(?:\s+(?:for\s+)?(?:the|this)\s+(?<range>today|week|month|year))?$"#),
        rule(.summarizeTopic, 0.95, #"^(?:sum up|summari[sz]e|recap|brief me on|boil down|give me the gist of|the gist of|gist of|give me a (?:summary|recap|rundown|overview) of|(?:a )?(?:quick |brief )?(?:summary|recap|rundown|overview)(?: of|\s*:)|key takeaways (?:on|from|about)|what are (?:the|my) key takeaways (?:on|from|about)|what (?:did|have) i (?:learn|learned|pick up|picked up) about|tl;?dr (?:of|on))\s+(?:(?:what|everything|all) i(?:'ve| have)? (?:learned|written|noted|wrote|saved|know) (?:about|on)\s+)?(?:my\s+)?(?:notes (?:on|about)\s+)?(?<topic>.+?)(?:\s+notes)?(?:\s+so far)?"# + range + #"$"#,
             unless: #"\b(?:this|that) (?:article|page|email|video|document|pdf)\b"#),

        // ShowConnections.
        rule(.showConnections, 0.95, #"(?:connections?|connected|linked|links|link graph|graph|map out|visuali[sz]e|hooked up)\b.*?\b"# + memoryRef + depth),
        rule(.showConnections, 0.95, #"\b"# + memoryRef + #"\b.*\b(?:connected|linked|connections|links|hooked up)\b"# + depth),
        rule(.showConnections, 0.95, #"^(?:what|how)(?:'s| is| does)\s+(?:(?:memory|note|item)\s+)?(?<memory>[\w-]*\d[\w-]*)\s+(?:linked|connected|hooked up|link)\b"# + depth),
        rule(.showConnections, 0.95, #"\b(?:connections?|connected|linked|links|link graph|graph(?: view)?|network|link web|web|map)\b(?:\s+\w+){0,2}?\s+(?:for|of|around|to|from|with)\s+(?<memory>[\w-]*\d[\w-]*)\b"# + depth),
        rule(.showConnections, 0.9, #"^(?:show|graph|map)(?: me)?(?: the)? (?:connections|links|link graph)$"#),

        // DailyReview.
        rule(.dailyReview, 0.95, #"^(?:what should i review(?: today)?|quiz me|test me|what'?s due(?: for review)?(?: today)?|what is due(?: for review)?|(?:let'?s )?(?:start|begin|do|time for|run) (?:my |the |a )?(?:quick )?(?:daily )?review|daily review|review time|run through what i need to refresh(?: today)?|what do i need to (?:review|refresh)(?: today)?|what'?s fading|what am i (?:about|going) to forget|go over my (?:weakest|fading) (?:memories|notes)|(?:which|what) (?:notes|memories) are (?:fading|about to fade)|(?:show me |list |give me )?(?:the |my )?(?:memories|notes) (?:i'?m|i am) (?:about|going) to forget|(?:show me |list |give me )?(?:the |my )?(?:memories|notes) (?:that are |which are )?(?:close to|about to|near|nearly) fad(?:e|ing))$"#),
        rule(.dailyReview, 0.95, #"^(?:review|(?:let'?s )?do a (?:quick )?review of|(?:give me )?(?:the )?top) (?<limit>\d+|\w+) (?:memories|notes|things|items|cards)(?: to review)?$"#),

        // MemoryStats.
        rule(.memoryStats, 0.95, #"^(?:how am i doing|how many (?:notes|memories|things|items)\b.*|(?:show|give|tell)(?: me)? (?:my )?(?:memory )?(?:stats|statistics|numbers)(?: on my (?:memories|notes))?|give me the numbers(?: on my (?:memories|notes))?|(?:memory |my |quick )?stats|statistics|numbers|how big is my (?:memory|memory bank|collection)|what'?s the tally(?: on my (?:notes|memories))?|(?:give me |what'?s )?(?:a |the )?(?:count|total) of (?:my )?(?:notes|memories)|(?:an? )?overview of my memor(?:y|ies)(?: collection| bank)?(?:\s*:.*)?)$"#,
             unless: #"\b(?:stud(?:y|ied)|learning|hours?|minutes?|sessions?)\b"#),

        // StartSession: a curriculum to study.
        rule(.startSession, 0.95, #"^(?:study|let'?s study|let'?s learn|let'?s do some|work on|let'?s work on|practi[cs]e|let'?s practi[cs]e|begin(?: a)?(?: study)? session (?:on|for)|start(?: a| a new)?(?: study)? session (?:on|for)|kick off(?: a)?(?: study)? session (?:on|for)|fire up(?: a)?(?: study)? session (?:on|for)|(?:i'?m )?going to study|let'?s get going on|let'?s start on|start studying|start learning|begin studying|begin learning|time to (?:study|learn)(?: some)?)\s+"# + studyTarget + #"$"#,
             unless: #"^(?:let'?s )?work on (?:my )?(?:progress|export)|^study time\b"#),
        rule(.startSession, 0.9, #"^start (?:the |a )?(?<curriculum>.+?) (?:course|curriculum|session)$|^start (?<curriculum2>.+?) (?:from|at) (?:the )?(?<topic>.+?)(?: topic)?$"#,
             unless: #"\b(?:timer|clock|review|break)\b"#),
        rule(.startSession, 0.95, #"^(?:let'?s study|start(?: a)?(?: new)?(?: study)? session|start studying|time to study)$"#),

        // PauseSession.
        rule(.pauseSession, 0.95, #"^(?:pause|hold on|hold it|take five|take ten|take a (?:short |quick |little )?(?:break|breather)|(?:i'?m )?taking a (?:short |quick |little )?break|break time|brb|be right back|gimme a (?:minute|sec|second)|give me a (?:minute|sec|second|moment)|one (?:minute|sec|second|moment)|freeze(?: the)? timer|put (?:the |my )?session on hold|hang on|i'?ll be (?:right )?back|need a (?:short |quick )?break|i need a (?:short |quick )?break|let'?s take a (?:short |quick )?(?:break|breather))\b"#,
             unless: #"^pause the (?:dishwasher|music|video)"#),
        rule(.pauseSession, 0.95, #"(?:^|[^\w-])(?:pause|freeze|hold)(?: the| my)? (?:session|studying|timer|clock)\b"#),
        rule(.pauseSession, 0.9, #"^(?:stop|hold)(?: the (?:clock|timer))? for (?:a|one|ten|five|\d+) (?:minute|min|sec|second|moment|bit)s?\b"#),

        // ResumeSession.
        rule(.resumeSession, 0.95, #"^(?:resume|continue|un-?pause|back at it|back to it|i'?m back|pick up where (?:i|we) left off|(?:let'?s )?keep going|let'?s continue|continue (?:studying|the session|my session)|(?:re)?start the (?:timer|clock) again|restart the (?:timer|clock)|done with (?:my|the) break|break'?s over|where was i|where were we|carry on|let'?s carry on|(?:let'?s )?get back to (?:it|studying|work))\b"#,
             unless: #"\b(?:download|upload|video|music|song|podcast|print(?:ing|er)?|playback|episode|movie|show)\b"#),
        rule(.resumeSession, 0.95, #"\b(?:resume|unpause|un-pause)(?: the| my)? (?:session|studying|timer)\b|\bcontinue from where (?:we|i) (?:stopped|left off)\b"#),
        rule(.resumeSession, 0.7, #"^back$"#),

        // StopSession: ending for good.
        rule(.stopSession, 0.95, #"^(?:(?:stop|end|finish|quit|close(?: out)?)(?: the| my| this)?(?: study| learning)? (?:session|studying|timer)\b.*|done studying|i'?m done(?: studying)?(?: for (?:today|now|the day|tonight))|let'?s call it a (?:day|night)|call it a day|(?:let'?s )?wrap(?: it)? up(?: for (?:today|now))?|(?:ok )?that'?s (?:it|enough) for (?:today|now|tonight)|enough (?:studying )?for (?:one day|today|now|tonight)|i'?m finished(?:.* for (?:today|tonight))?|let'?s stop (?:here|now|for today)|end it)$"#),
        rule(.stopSession, 0.95, #"\b(?:not coming back|done for the day)\b.*\b(?:end|stop|finish)\b|\b(?:end|stop|finish) it\b.*\bnot coming back\b|\bclose out the session\b"#),
        rule(.stopSession, 0.5, #"^(?:stop|end|done|finish|quit|i'?m done)$"#),

        // OpenCurriculum.
        rule(.openCurriculum, 0.95, #"^(?:how far am i (?:in|with|along in|along with|through)|how close am i to finishing|what'?s left in|what is left in|show(?: me)? my progress (?:on|in|with)|where am i in|(?:what|list the|show(?: me)? the) topics (?:are )?in)\s+(?<curriculum>.+?)$"#),
        rule(.openCurriculum, 0.95, #"^how much of (?<curriculum>.+?) (?:have i|did i) (?:finished|finish|done|completed)$"#),
        rule(.openCurriculum, 0.95, #"^(?:open|show|take me to|go to|pull up|let me see)(?: me)?(?: the| my)? (?:curriculum|course)(?: for| on| called)? (?<curriculum>.+)$|^(?:open|show|take me to|go to|pull up|let me see)(?: me)?(?: the| my)? (?<curriculum2>.+?) (?:curriculum|course|overview|syllabus)$"#),
        rule(.openCurriculum, 0.55, #"^open (?:the )?(?<curriculum>.+)$"#, unless: #"\b(?:topic|lesson|chapter|curriculum|course)\b"#),
        rule(.openCurriculum, 0.95, #"^(?:open|show)(?: the| a| my)? (?:curriculum|course)$"#),

        // OpenTopic.
        rule(.openTopic, 0.95, #"^(?:open|go to|show|pull up|take me to|jump to|let me see|look at)(?: me)?(?: the)? (?:topic|lesson|chapter)(?: on| about| called)?\s+(?<topic>.+)$"#),
        rule(.openTopic, 0.95, #"^(?:open|go to|show|pull up|take me to|jump to|let me see|look at)(?: me)?(?: the)? (?<topic>.+?) (?:topic|lesson|chapter)(?:\s+(?:in|of|from)\s+.+)?$"#),
        rule(.openTopic, 0.95, #"^what'?s (?:in )?the (?<topic>.+?) (?:topic|lesson|chapter)(?: about)?$"#),
        rule(.openTopic, 0.95, #"^(?:open|show)(?: the| a)? (?:topic|lesson|chapter)$"#),

        // ShowAnalytics: how much was studied.
        rule(.showAnalytics, 0.95, #"^(?:how (?:much|long) did i (?:study|practi[cs]e|learn|spend studying)|how much (?:time )?(?:have i|did i) (?:spent|spend|studied|study)|how many (?:hours|minutes|days) did i (?:study|put in|spend)|(?:show(?: me)?|give me)?\s*(?:my )?(?:learning|study|studying) (?:stats|statistics|analytics|time|breakdown|report)(?: by (?:topic|curriculum))?|learning analytics|minutes studied|hours studied|time studied|time spent(?: per (?:curriculum|topic))?|chart my study(?: time)?|study time|all-?time study time)"# + #".*?"# + range + #"$"#),
        rule(.showAnalytics, 0.96, #"^all-?time (?:study time|stats|analytics)$"#, ["range": "all"]),

        // ShowHistory: which sessions.
        rule(.showHistory, 0.95, #"^(?:what sessions did i (?:do|have)|what have i been studying(?: lately| recently)?|when did i (?:last )?study|what did i study(?: yesterday| lately| recently)?|(?:show(?: me)?|list|pull up|get)?\s*(?:my |the )?(?:last |past |recent |previous )?(?:(?<limit>\d+|one|two|three|four|five|ten|twenty) )?(?:study |learning )?(?:sessions|history|session log)|session history|my (?:past |previous |recent |last )?(?:study |learning )?sessions|(?:what|which) (?:study )?sessions (?:did|have) i (?:do|done|had|have|finished)(?: lately| recently)?)$"#),

        // RelatedMemories: memories alike (not the link graph).
        rule(.relatedMemories, 0.95, #"^(?:what(?:'s| is| else is) (?:related|similar) to|(?:show|find|give|get)(?: me)? (?:(?<limit>\d+|three|five|ten) )?(?:memories|notes|things|stuff) (?:related to|like|similar to)|(?:more|anything|something|memories|notes) (?:like|similar to|related to)|related to|similar to)\s+(?:(?:memory|note|number|item)\s+)?(?<memory>[\w-]+)$"#),
        rule(.relatedMemories, 0.95, #"^(?:find|show|give|get|list)(?: me)?(?: the)?(?: top)?\s+(?:(?<limit>\d+|three|five|ten)\s+)?(?:similar|related)(?:\s+(?:memories|notes|ones|things))?\s+(?:to|for|like|of)\s+(?:(?:memory|note|item)\s+)?(?<memory>[\w-]*\d[\w-]*)(?:,?\s+(?:top|max|just|at most)\s+(?<limit2>\d+))?$"#),
        rule(.relatedMemories, 0.95, #"^(?:related (?:notes|memories) (?:for|of|to)|(?:which|what) (?:memories|notes) resemble|(?:find|show|get|give)(?: me)? (?:stuff|memories|notes|things) (?:close|similar) in meaning to|what else do i have (?:that'?s )?like)\s+(?:(?:memory|note|item)\s+)?(?<memory>[\w-]*\d[\w-]*)$"#),
        rule(.relatedMemories, 0.95, #"^(?:what else is like|find (?:ones|more) like)\s+(?:(?:memory|note|number|item)\s+)?(?<memory>[\w-]+)$"#),

        // TagMemory.
        rule(.tagMemory, 0.95, #"^(?:tag|label)\s+(?:(?:memory|note|number|item)\s+)?(?<memory>[\w-]+)\s+(?:with|as)\s+(?<add>.+)$"#),
        rule(.tagMemory, 0.95, #"^add (?:the )?(?:tags?|labels?)\s+(?<add>.+?)\s+to\s+(?:(?:memory|note|number|item)\s+)?(?<memory>[\w-]+)$"#),
        rule(.tagMemory, 0.95, #"^(?:remove|drop|take off|take away) (?:the )?(?:tags?|labels?)\s+(?<remove>.+?)\s+(?:from|on|off)\s+(?:(?:memory|note|number|item)\s+)?(?<memory>[\w-]+)$"#),
        rule(.tagMemory, 0.9, #"^(?:tag|label)\s+(?:(?:memory|note|item)\s+)?(?<memory>[\w-]*\d[\w-]*)\s+(?<add>[\w-]+(?:(?:,\s*|\s+and\s+|\s+)[\w-]+)*)$"#),
        rule(.tagMemory, 0.95, #"^(?:put|add|stick) (?:an? |the )?(?<add>[\w-]+) (?:tag|label) (?:on|to)\s+(?:(?:memory|note|item)\s+)?(?<memory>[\w-]*\d[\w-]*)$"#),
        rule(.tagMemory, 0.95, #"^(?:take off|remove|drop) (?:an? |the )?(?<remove>[\w-]+) (?:tag|label) (?:on|from|off)\s+(?:(?:memory|note|item)\s+)?(?<memory>[\w-]*\d[\w-]*)$"#),
        rule(.tagMemory, 0.95, #"^(?:(?:memory|note|item)\s+)?(?<memory>[\w-]*\d[\w-]*):?\s+add (?:the )?(?:tags?|labels?)\s+(?<add>.+?)(?:,?\s+(?:and\s+)?(?:drop|remove|take off)\s+(?:the\s+)?(?:tags?|labels?)\s+(?<remove>.+))?$"#),
        rule(.tagMemory, 0.95, #"^untag\s+(?:(?:memory|note|number|item)\s+)?(?<memory>[\w-]+)\s+(?:from\s+)?(?<remove>.+)$"#),

        // PinMemory.
        rule(.pinMemory, 0.95, #"^(?:pin|star)\s+(?:(?:memory|note|number|item)\s+)?(?<memory>[\w-]+)(?:\s+(?:so it never fades|forever|for good|to the top))?$"#),
        rule(.pinMemory, 0.95, #"^(?:unpin|unstar)\s+(?:(?:memory|note|number|item)\s+)?(?<memory>[\w-]+)$|^let\s+(?:(?:memory|note|number|item)\s+)?(?<memory2>[\w-]+)\s+fade(?: normally| like the rest| as usual)?(?: again)?$"#, ["pinned": "false"]),
        rule(.pinMemory, 0.95, #"^(?:(?:don'?t|never) let|keep|make sure)\s+(?:memory|note|number|item)\s+(?<memory>[\w-]+)\s+(?:fade|from fading|pinned|never fades)$"#),
        rule(.pinMemory, 0.95, #"^(?:(?:don'?t|never) let|keep|make)\s+(?:(?:memory|note|item)\s+)?(?<memory>[\w-]*\d[\w-]*)\s+(?:fade|from fading|pinned|forever|permanent|never fade)"#),
        rule(.pinMemory, 0.95, #"^(?:remove|take off|drop) (?:the )?pin (?:from|on|off)\s+(?:(?:memory|note|item)\s+)?(?<memory>[\w-]*\d[\w-]*)$|^(?:(?:memory|note|item)\s+)?(?<memory2>[\w-]*\d[\w-]*) (?:doesn'?t|does not|no longer) need(?:s)? to be pinned"#, ["pinned": "false"]),

        // ForgetMemory: read so Engram can say how, never run from words.
        rule(.forgetMemory, 0.95, #"^(?:forget|delete|erase|remove|wipe|get rid of)\s+(?:memory|note|number|item)\s+(?<memory>[\w-]+)(?:\s+for good|\s+forever|\s+completely)?$"#),

        // ExportProgress: a file of curricula progress.
        rule(.exportProgress, 0.95, #"\b(?<format>json|markdown|md) (?:export|report) of (?:my )?(?:curricul(?:um|a) )?progress\b"#),
        rule(.exportProgress, 0.95, #"\bexport\b.*?\b(?:progress|everything i'?ve studied)\b"# + exportTo),
        rule(.exportProgress, 0.95, #"^(?:save|back up|backup|write(?: out)?|dump)(?: my)?(?: study| learning| curricula| curriculum)? progress\b(?=.*\b(?:file|json|markdown|md)\b)"# + exportTo),
        rule(.exportProgress, 0.9, #"\b(?:(?:save|keep|make|give me) (?:a )?(?:copy|report|backup) of (?:my )?progress|(?:a )?progress (?:report|export|file)|report of my progress)\b"# + exportTo),
    ]

    /// The subject in a slot as people say it: "my notes on tax deadlines" → "tax deadlines".
    static func subject(_ value: String) -> String {
        var v = trimmed(value)
        let fillers = try! NSRegularExpression(pattern: #"^(?:(?:my|the|all|some)\s+)?(?:notes?|memories|stuff|things|everything|anything|something|what i (?:noted|wrote|saved|have|know))\s+(?:about|on|regarding|for)\s+"#, options: [.caseInsensitive])
        if let m = fillers.firstMatch(in: v, range: NSRange(v.startIndex..., in: v)), let r = Range(m.range, in: v) { v = String(v[r.upperBound...]) }
        return v
    }

    /// A slot value without the punctuation and filler people end with.
    static func trimmed(_ value: String) -> String {
        var v = value.trimmingCharacters(in: .whitespaces)
        while let last = v.last, ",.;:!?".contains(last) { v.removeLast() }
        return v.trimmingCharacters(in: .whitespaces)
    }
}
