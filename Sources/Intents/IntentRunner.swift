import EngramCore
import Foundation
import EngramApp
import Indexer

/// Runs intents against a library. Links become actions through `LinkHandler`, as everywhere else.
public struct IntentRunner {
    public let library: Library
    /// Where the request came from, for the activity log ("cli", "dbus", "krunner", "rofi").
    public var source: String
    public var calendar: Calendar = .current
    /// Whether progress exports may go only into the data folder's `exports/` (what the daemon allows a D-Bus
    /// caller: a path from the bus could otherwise overwrite any file this user may write). The CLI writes anywhere.
    public var exportsOnlyToDataFolder = false
    /// A capture's idempotency key: StoreMemory retried with the same key stores once.
    public var requestID: String?

    /// Creates a runner.
    public init(library: Library, source: String) {
        self.library = library
        self.source = source
    }

    /// The matcher over the catalog and the person's own phrases.
    public func matcher() throws -> PhraseMatcher {
        PhraseMatcher(userPhrases: try ShortcutConfig(library.config).phrases.map { ($0.template, $0.intent) })
    }

    /// Matches `phrase` and runs the intent.
    public func perform(phrase: String) throws -> IntentResult {
        try respond(phrase)
    }

    /// Runs an invocation.
    public func run(_ invocation: IntentInvocation) throws -> IntentResult {
        let a = try invocation.resolved()
        let store = library.store
        var links = LinkHandler(library: library, source: source)
        links.requestID = requestID
        let name = invocation.name
        switch name {
        case .storeMemory:
            let out = try links.perform(.remember(text: a["content"]!, type: MemoryType(rawValue: a["type"]!)!, tags: []))
            var r = IntentResult(intent: name, sentence: out.sentence)
            if let m = out.memory { r.items = [item(m)] }
            return r
        case .queryMemory:
            let query = a["query"]!
            let found = try library.search(query, for: .command(limit: Int(a["limit"]!)!)) { $0.kinds = [.memory] }
            let n = found.estimatedTotal
            var r = IntentResult(intent: name, sentence: n == 0
                ? "Found no memories about \(query)." + (found.suggestion.map { " Did you mean \($0)?" } ?? "")
                : "Found \(n) memor\(n == 1 ? "y" : "ies") about \(query). Summarize \(n == 1 ? "it" : "them"), or show all?")
            r.items = try found.hits.map { hit in
                ResultItem(kind: hit.kind.rawValue, id: hit.id, title: hit.title, detail: hit.snippet.plainText,
                           url: DeepLink.memory(id: hit.id).url, tags: hit.tags, created: ISODate.format(hit.created),
                           byMeaning: hit.byMeaning, links: try store.links(of: hit.id).count)
            }
            if a["includeRelated"] == "true", let first = found.hits.first {
                for rel in try library.related(to: first.id, limit: 5) {
                    r.items.append(ResultItem(kind: "related", id: rel.memory.id, title: rel.memory.title,
                                              detail: rel.linked ? "linked" : "alike", url: DeepLink.memory(id: rel.memory.id).url))
                }
            }
            if n > 0 {
                r.followUps = [
                    FollowUp(id: "summarize", label: "Summarize", intent: .summarizeTopic, arguments: ["topic": query]),
                    FollowUp(id: "show-all", label: "Show all", intent: .queryMemory, arguments: ["query": query, "limit": String(min(max(n, 10), 100))]),
                ]
            }
            return r
        case .summarizeTopic:
            let range = TimeRange(rawValue: a["range"]!)!
            let s = try Summarizer(library: library, calendar: calendar).summarize(a["topic"]!, range: range)
            let when = range.phrase.isEmpty ? "" : " \(range.phrase)"
            var r = IntentResult(intent: name, sentence: s.sentences.isEmpty
                ? "Nothing about \(s.topic)\(when) to summarize."
                : "Summary of \(s.topic)\(when) from \(s.memoryIDs.count) memor\(s.memoryIDs.count == 1 ? "y" : "ies").")
            r.lines = s.sentences.map { "• \($0.text) [\($0.memoryID)]" }
            r.summary = s
            return r
        case .showConnections:
            let g = try ConnectionGraph.build(store: store, center: a["memory"]!, depth: Int(a["depth"]!)!)
            let n = g.nodes.count - 1
            var r = IntentResult(intent: name, sentence: "“\(g.nodes[0].title)” has \(n) connection\(n == 1 ? "" : "s") within \(g.depth) link\(g.depth == 1 ? "" : "s").")
            r.lines = g.text().split(separator: "\n").map(String.init)
            r.items = g.nodes.dropFirst().map { ResultItem(kind: "memory", id: $0.id, title: $0.title, detail: "\($0.depth) away", url: DeepLink.memory(id: $0.id).url) }
            r.graph = g
            return r
        case .dailyReview:
            let due = try Review(library: library).due(limit: Int(a["limit"]!)!)
            var r = IntentResult(intent: name, sentence: due.isEmpty ? "Nothing to review today."
                                 : "\(due.count) memor\(due.count == 1 ? "y is" : "ies are") due for review today.")
            r.items = due.map(item)
            return r
        case .memoryStats:
            let ctx = try store.activeContext()
            if ctx == "sleep" { return IntentResult(intent: name, sentence: "The sleep context is on: nothing is shown.") }
            let s = try store.stats(now: store.clock(), decay: library.config.decay, context: ctx, timeZone: calendar.timeZone)
            var r = IntentResult(intent: name, sentence: "You have \(s.total) memories\(ctx.map { " in \($0)" } ?? ""), \(s.today) from today, and a \(s.streakDays)-day streak.")
            r.lines = ["\(s.thisWeek) this week · \(s.connections) connections · \(s.pinned) pinned",
                       "\(s.expiringSoon) fading within a week · \(s.expired) faded from search"]
            return r
        case .startSession:
            let c = try Resolve.curriculum(a["curriculum"]!, store: store)
            let t = try a["topic"].flatMap { $0.isEmpty ? nil : try Resolve.topic($0, store: store, curriculumID: c.id).id }
            let out = try links.perform(.sessionStart(curriculumID: c.id, topicID: t))
            var r = IntentResult(intent: name, sentence: out.sentence)
            if let s = out.session { r.items = [ResultItem(kind: "session", id: s.id, title: s.title, detail: nil, url: nil)] }
            return r
        case .pauseSession, .resumeSession, .stopSession:
            let action: DeepLink.SessionAction = name == .pauseSession ? .pause : name == .resumeSession ? .resume : .stop
            let out = try links.perform(.session(action: action, id: nil))
            return IntentResult(intent: name, sentence: out.sentence)
        case .openCurriculum:
            let c = try Resolve.curriculum(a["curriculum"]!, store: store)
            let out = try links.perform(.curriculum(id: c.id))
            var r = IntentResult(intent: name, sentence: out.sentence)
            r.items = (out.curriculum?.1 ?? []).map { ResultItem(kind: "topic", id: $0.id, title: $0.title, detail: $0.done ? "done" : nil, url: DeepLink.topic(id: $0.id).url) }
            return r
        case .openTopic:
            let t = try Resolve.topic(a["topic"]!, store: store, curriculumID: nil)
            let out = try links.perform(.topic(id: t.id))
            var r = IntentResult(intent: name, sentence: out.sentence)
            r.items = [ResultItem(kind: "topic", id: t.id, title: t.title, detail: t.notes.isEmpty ? nil : t.notes, url: DeepLink.topic(id: t.id).url)]
            return r
        case .showAnalytics:
            let an = try LearningAnalytics.compute(store: store, range: TimeRange(rawValue: a["range"]!)!, calendar: calendar)
            var r = IntentResult(intent: name, sentence: "You studied \(an.totalMinutes) minutes\(an.range == .all ? "" : " \(an.range.phrase)") over \(an.studyDays) day\(an.studyDays == 1 ? "" : "s"); streak \(an.streakDays) day\(an.streakDays == 1 ? "" : "s").")
            r.lines = an.table().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            r.analytics = an
            return r
        case .showHistory:
            let sessions = try store.sessions(limit: Int(a["limit"]!)!)
            let minutes = Int(saturating: sessions.reduce(0) { $0 + $1.elapsed(at: store.clock()) } / 60)
            var r = IntentResult(intent: name, sentence: sessions.isEmpty ? "No sessions yet."
                                 : "\(sessions.count) recent session\(sessions.count == 1 ? "" : "s"), \(minutes) minutes in all.")
            r.items = sessions.map { s in
                ResultItem(kind: "session", id: s.id, title: s.title,
                           detail: "\(ISODate.day(s.started)) · \(Int(saturating: s.elapsed(at: store.clock()) / 60)) min · \(s.state.rawValue)", url: nil)
            }
            return r
        case .relatedMemories:
            let m = try store.requireMemory(id: a["memory"]!)
            let related = try library.related(to: m.id, limit: Int(a["limit"]!)!)
            var r = IntentResult(intent: name, sentence: related.isEmpty ? "Nothing is related to “\(m.title)” yet."
                                 : "\(related.count) memor\(related.count == 1 ? "y" : "ies") related to “\(m.title)”.")
            r.items = related.map { rel in
                ResultItem(kind: "memory", id: rel.memory.id, title: rel.memory.title,
                           detail: rel.linked ? "linked" : "\(Int((rel.score * 100).rounded()))% alike", url: DeepLink.memory(id: rel.memory.id).url)
            }
            return r
        case .tagMemory:
            func tags(_ text: String) -> [String] { text.split { $0 == "," || $0.isWhitespace }.map(String.init) }
            let add = tags(a["add"]!), remove = tags(a["remove"]!)
            guard !add.isEmpty || !remove.isEmpty else {
                throw EngramError.invalidInput("TagMemory needs tags to add or remove")
            }
            let m = try store.retag(id: a["memory"]!, add: add, remove: remove)
            _ = try? library.applyPending()
            var r = IntentResult(intent: name, sentence: "“\(m.title)”: \(m.tags.isEmpty ? "no tags" : m.tags.map { "#\($0)" }.joined(separator: " ")).")
            r.items = [item(m)]
            return r
        case .pinMemory:
            let pinned = a["pinned"] == "true"
            let m = try store.setPinned(id: a["memory"]!, pinned)
            _ = try? library.applyPending()
            var r = IntentResult(intent: name, sentence: pinned ? "Pinned “\(m.title)”: it never fades." : "Unpinned “\(m.title)”: it fades as it is forgotten.")
            r.items = [item(m)]
            return r
        case .forgetMemory:
            let m = try store.requireMemory(id: a["memory"]!)
            guard a["confirm"] == "true" else {
                throw EngramError.invalidInput("nothing was forgotten: forgetting “\(m.title)” erases it everywhere and cannot be undone; pass confirm = true to go ahead")
            }
            try store.forget(id: m.id)
            _ = try? library.applyPending()
            return IntentResult(intent: name, sentence: "Forgot “\(m.title)”.")
        case .exportProgress:
            let (path, count) = try ProgressExport(library: library, calendar: calendar).write(format: a["format"]!, to: a["path"]!, onlyToDataFolder: exportsOnlyToDataFolder)
            var r = IntentResult(intent: name, sentence: "Exported progress on \(count) curricul\(count == 1 ? "um" : "a") to \(path).")
            r.path = path
            return r
        }
    }

    func item(_ m: Memory) -> ResultItem {
        ResultItem(kind: "memory", id: m.id, title: m.title, detail: m.type.rawValue, url: DeepLink.memory(id: m.id).url)
    }
}

/// Finds curricula and topics from what a person says: an id, a title, or a few words of it.
public enum Resolve {
    /// The curriculum `text` names.
    public static func curriculum(_ text: String, store: Store) throws -> Curriculum {
        let all = try store.curricula()
        let found = ids(text, among: all.map { ($0.id, $0.title) })
        if found.count == 1, let c = all.first(where: { $0.id == found[0] }) { return c }
        let hits = all.filter { found.contains($0.id) }
        let names = all.map { "\($0.title) (\($0.id))" }.joined(separator: ", ")
        throw EngramError.notFound(hits.isEmpty ? "no curriculum called “\(text)”; you have: \(names.isEmpty ? "none yet — `engram import` one" : names)"
                                   : "“\(text)” could be \(hits.map(\.id).joined(separator: " or ")); say which")
    }

    /// The topic `text` names, within `curriculumID` when given.
    public static func topic(_ text: String, store: Store, curriculumID: String?) throws -> Topic {
        let all = try curriculumID.map { try store.topics(of: $0) } ?? store.allTopics()
        let key = slug(text)
        if let t = all.first(where: { $0.id == text || slug($0.id) == key || slug($0.title) == key }) { return t }
        let hits = all.filter { slug($0.title).contains(key) }
        if hits.count == 1 { return hits[0] }
        throw EngramError.notFound(hits.isEmpty ? "no topic called “\(text)”; `engram ask \"open curriculum …\"` lists a curriculum's topics"
                                   : "“\(text)” could be \(hits.prefix(5).map(\.title).joined(separator: " or ")); say which")
    }

    /// The ids of `among` that `text` names: the one whose id or title it is, else every one whose title or id holds
    /// its words (one is an answer, several a question).
    public static func ids(_ text: String, among: [(id: String, title: String)]) -> [String] {
        let key = slug(text)
        guard !key.isEmpty else { return [] }
        if let exact = among.first(where: { $0.id == text || slug($0.id) == key || slug($0.title) == key }) { return [exact.id] }
        return among.filter { slug($0.title).contains(key) || slug($0.id).contains(key) }.map(\.id)
    }

    /// Lowercase letters and digits joined by single dashes.
    static func slug(_ s: String) -> String {
        s.lowercased().split { !$0.isLetter && !$0.isNumber }.joined(separator: "-")
    }
}
