import EngramCore
import Foundation
import Indexer

/// What following a link did, in words a person (or a voice front end) can be told.
public struct LinkOutcome: Sendable {
    /// One sentence, e.g. "Paused “Rust: Ownership” at 12 min."
    public var sentence: String
    /// The memory opened or captured, if any.
    public var memory: Memory?
    /// Search results, for `search` links.
    public var search: LibrarySearchResult?
    /// The session changed, if any.
    public var session: Session?
    /// A curriculum with its topics, for curriculum and topic links.
    public var curriculum: (Curriculum, [Topic])?
}

/// Carries out `engram://` links against the library: the one place every front end (CLI, D-Bus `Open`,
/// desktop actions) turns a link into an action. Nothing in a link is ever run as a program.
public struct LinkHandler {
    public let library: Library
    /// Where the action came from, for the activity log ("cli", "gnome", "krunner", "dbus").
    public var source: String
    /// A capture's idempotency key (`engram remember --request-id`, MCP's `requestId`): a capture retried with the
    /// same key is stored once.
    public var requestID: String?

    /// Creates a handler.
    public init(library: Library, source: String) {
        self.library = library
        self.source = source
    }

    /// Parses and follows `url`.
    public func open(_ url: String) throws -> LinkOutcome {
        try perform(try DeepLink.parse(url))
    }

    /// Follows a parsed link.
    public func perform(_ link: DeepLink) throws -> LinkOutcome {
        let store = library.store
        switch link {
        case .memory(let id):
            let m = try store.reinforce(id: id, action: .open, source: source)
            _ = try? library.applyPending()
            try? library.handoff?.publish(memory: m)
            return LinkOutcome(sentence: "Opened “\(m.title)”.", memory: m)
        case .search(let q):
            let r = try library.search(q, for: .command())
            let n = r.estimatedTotal
            return LinkOutcome(sentence: n == 0 ? "Nothing found for \(q)." : "Found \(n) result\(n == 1 ? "" : "s") for \(q).", search: r)
        case .curriculum(let id):
            guard let c = try store.curriculum(id: id) else { throw EngramError.notFound("no curriculum with id '\(id)'") }
            let topics = try store.topics(of: id)
            return LinkOutcome(sentence: "\(c.title): \(topics.filter(\.done).count) of \(topics.count) topics done.", curriculum: (c, topics))
        case .topic(let id):
            guard let t = try store.topic(id: id), let c = try store.curriculum(id: t.curriculumID) else {
                throw EngramError.notFound("no topic with id '\(id)'")
            }
            return LinkOutcome(sentence: "\(c.title), topic \(t.position): \(t.title)\(t.done ? " (done)" : "").", curriculum: (c, [t]))
        case .remember(let text, let type, let tags):
            let r = try store.remember(MemoryDraft(content: text, type: type, tags: tags, context: try store.captureContext(), source: source),
                                       requestID: requestID)
            _ = try? library.applyPending()
            return LinkOutcome(sentence: r.created ? "Remembered “\(r.memory.title)”." : "Already remembered “\(r.memory.title)”.", memory: r.memory)
        case .sessionStart(let cid, let tid):
            let s = try store.startLearningSession(curriculumID: cid, topicID: tid)
            return LinkOutcome(sentence: "Started \(s.title).", session: s)
        case .session(let action, let id):
            let s = try store.transition(action, sessionID: id)
            let minutes = Int(saturating: s.elapsed(at: store.clock()) / 60)
            let verb = ["pause": "Paused", "resume": "Resumed", "stop": "Stopped"][action.rawValue]!
            return LinkOutcome(sentence: "\(verb) \(s.title) at \(minutes) min.", session: s)
        case .review:
            let n = try Review(library: library).due(limit: 50).count
            return LinkOutcome(sentence: n == 0 ? "Nothing to review today." : "\(n) memor\(n == 1 ? "y is" : "ies are") due for review today.")
        case .stats:
            let (s, ctx) = try store.statsInActiveContext(now: store.clock(), decay: library.config.decay)
            if ctx == "sleep" { return LinkOutcome(sentence: "The sleep context is on: nothing is shown.") }
            return LinkOutcome(sentence: "You have \(s.total) memories\(ctx.map { " in \($0)" } ?? ""), \(s.today) from today, and a \(s.streakDays)-day streak.")
        case .handoff(let which):
            return try continueHere(which)
        case .context(let name):
            try store.setSetting("context", name)
            return LinkOutcome(sentence: name.map { "Context set to \($0)." } ?? "Context cleared: everything is shown.")
        }
    }
}

/// Memories due for review: those closest to fading from search, still in it.
public struct Review {
    public let library: Library

    /// Creates a review over `library`.
    public init(library: Library) { self.library = library }

    /// Memories whose strength fell below one half and that have not faded yet, weakest first.
    public func due(limit: Int) throws -> [Memory] {
        let now = library.store.clock()
        let decay = library.config.decay
        let ctx = try library.store.activeContext()
        if ctx == "sleep" { return [] }
        return try library.store.allMemories()
            .filter { !$0.pinned && (ctx == nil || $0.context == ctx) && !decay.isExpired($0, at: now) && decay.score(of: $0, at: now) < 0.5 }
            .sorted { decay.score(of: $0, at: now) < decay.score(of: $1, at: now) }
            .prefix(limit).map { $0 }
    }
}
