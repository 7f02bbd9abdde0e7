import EngramApp
import EngramClient
import EngramCore
import Foundation
import Indexer
import Intents
import GtkKit

/// What the window shows, read from the application layer (`Library`, `IntentRunner`, `LinkHandler`) off the main
/// loop, as plain values the views draw. Every change goes through the store and its outbox, as the CLI's does, and
/// is then made searchable by the rule every command follows (`IndexClient`: here when the index writer is free,
/// else the daemon).
public final class WindowData: @unchecked Sendable {
    public let library: Library
    /// Store and index work, one job at a time, never on the main loop.
    let queue = DispatchQueue(label: "org.engram.window.data", qos: .userInitiated)

    public init(library: Library) { self.library = library }

    /// One search result row.
    public struct Row: Equatable {
        public var id: String
        public var kind: IndexKind
        public var url: String
        public var title: String
        public var description: String
        public var icon: String
        public var byMeaning: Bool
        /// Strength in 0…1 for memories (nil for curricula and topics).
        public var strength: Double?
        public var faded: Bool
        public var pinned: Bool
    }

    public struct SearchFilters: Equatable {
        public var kind: IndexKind?
        public var type: MemoryType?
        public var includeFaded = false
        public init() {}
    }

    public struct SearchOutcome {
        public var rows: [Row]
        public var notice: String?
        public var suggestion: String?
    }

    /// The icon for a memory type or an index kind, from the Adwaita set every desktop has.
    public static func icon(kind: IndexKind, type: String?) -> String {
        switch kind {
        case .curriculum: return "accessories-dictionary-symbolic"
        case .topic: return "view-list-bullet-symbolic"
        default:
            switch type.flatMap(MemoryType.init(rawValue:)) {
            case .idea: return "dialog-information-symbolic"
            case .task: return "object-select-symbolic"
            case .quote: return "format-text-italic-symbolic"
            case .learning: return "emblem-documents-symbolic"
            default: return "text-x-generic-symbolic"
            }
        }
    }

    /// Searches as every surface does (`Library.search`, words and meaning), the last word a prefix while typing.
    /// How many results the window lists (a window's height of them; more is a more precise query away).
    public static let rowsShown = 15

    public func search(_ text: String, filters: SearchFilters, limit: Int = WindowData.rowsShown) throws -> SearchOutcome {
        var query = text
        if let type = filters.type { query = "type:\(type.rawValue) " + query }
        // As the provider does: what is indexed, without applying pending changes first (every change the window
        // makes is made searchable when it is made, and the daemon indexes everyone else's).
        guard var request = try library.searchRequest(query, for: .desktop(limit: limit)) else {
            return SearchOutcome(rows: [], notice: "The sleep context is on: nothing is shown.", suggestion: nil)
        }
        if let kind = filters.kind { request.kinds = [kind] }
        let result = try library.search(request, includeFaded: filters.includeFaded, applyFirst: false)
        let now = library.store.clock()
        let decay = library.config.decay
        let memories = Dictionary(uniqueKeysWithValues: try library.store.memories(ids: result.hits.filter { $0.kind == .memory }.map(\.id)).map { ($0.id, $0) })
        let rows = result.hits.map { hit -> Row in
            let memory = hit.kind == .memory ? memories[hit.id] : nil
            let snippet = hit.snippet.plainText.replacingOccurrences(of: "\n", with: " ")
            let description = snippet == hit.title ? "" : snippet
            let url: String
            switch hit.kind {
            case .curriculum: url = DeepLink.curriculum(id: hit.id).url
            case .topic: url = DeepLink.topic(id: hit.id).url
            default: url = DeepLink.memory(id: hit.id).url
            }
            return Row(id: hit.id, kind: hit.kind, url: url, title: hit.title.split(whereSeparator: \.isNewline).joined(separator: " "), description: String(description.prefix(200)),
                       icon: Self.icon(kind: hit.kind, type: hit.type), byMeaning: hit.byMeaning,
                       strength: memory.map { decay.score(of: $0, at: now) }, faded: result.fadedIDs.contains(hit.id),
                       pinned: memory?.pinned ?? false)
        }
        return SearchOutcome(rows: rows, notice: result.notice, suggestion: result.suggestion)
    }

    /// A memory's page.
    public struct Page {
        public var memory: Memory
        public var strength: Double
        public var fades: Date?
        public var linksOut: [(id: String, title: String)]
        public var linksIn: [(id: String, title: String)]
        /// Memories alike in words and in meaning (not linked).
        public var related: [(id: String, title: String)]
    }

    /// Opens a memory's page: strengthens it, as `engram show` does, and offers it to your other devices.
    public func open(_ id: String, strengthen: Bool = true) throws -> Page {
        let store = library.store
        let memory = strengthen ? try LinkHandler(library: library, source: "app").perform(.memory(id: id)).memory! : try store.requireMemory(id: id)
        if strengthen { makeSearchable() }
        return try page(memory)
    }

    func page(_ memory: Memory) throws -> Page {
        let store = library.store
        let now = store.clock()
        let decay = library.config.decay
        let links = try store.links(of: memory.id)
        let otherIDs = links.map { $0.other(than: memory.id) }
        let titles = Dictionary(try store.memories(ids: otherIDs).map { ($0.id, $0.title) }, uniquingKeysWith: { a, _ in a })
        var out: [(id: String, title: String)] = [], into: [(id: String, title: String)] = []
        for l in links {
            let other = l.other(than: memory.id)
            guard let title = titles[other] else { continue }
            if l.fromID == memory.id { out.append((other, title)) } else { into.append((other, title)) }
        }
        let linked = Set(otherIDs)
        let related = ((try? library.related(to: memory.id, limit: 8)) ?? [])
            .filter { !linked.contains($0.memory.id) }
            .map { (id: $0.memory.id, title: $0.memory.title) }
        return Page(memory: memory, strength: decay.score(of: memory, at: now), fades: memory.pinned ? nil : decay.expiry(of: memory),
                    linksOut: out, linksIn: into, related: related)
    }

    /// Runs an intent of the catalog as every surface does, and makes what it changed searchable.
    @discardableResult
    public func run(_ intent: IntentName, _ arguments: [String: String]) throws -> IntentResult {
        let result = try IntentRunner(library: library, source: "app").run(IntentInvocation(intent, arguments))
        if IntentCatalog.definition(intent).effect != .readOnly { makeSearchable() }
        return result
    }

    /// The invocation an `intent:` link names, if it is one of the desktop entry's actions (an intent with no
    /// argument to give, as `[Desktop Action …]` runs it). Anything else is refused: a link handed to the window
    /// (over `org.freedesktop.Application.Open`, by any program on the bus) must not run a capture, a tag or a
    /// forget with arguments of its choosing.
    public static func desktopAction(_ commandID: String) throws -> IntentInvocation {
        let invocation = try IntentInvocation(commandID: commandID)
        guard invocation.arguments.isEmpty, IntentCatalog.desktopActionIntents.contains(where: { $0.name == invocation.name }) else {
            throw EngramError.invalidInput("the window runs only its desktop actions from a link, not \(invocation.name.rawValue) with arguments")
        }
        return invocation
    }

    public func edit(_ id: String, content: String) throws -> Page {
        let m = try library.store.edit(id: id, content: content)
        makeSearchable()
        return try page(m)
    }

    public func capture(_ content: String, type: MemoryType, tags: [String]) throws -> Memory {
        let draft = MemoryDraft(content: content, type: type, tags: tags, context: try library.store.captureContext(), source: "app")
        let m = try library.store.remember(draft).memory
        makeSearchable()
        return m
    }

    /// Forgets a memory everywhere it was copied, as `engram forget` does.
    public func forget(_ id: String) throws {
        try library.store.forget(id: id)
        makeSearchable()
    }

    public func reviewed(_ id: String) throws {
        try library.store.reinforce(id: id, action: .review, source: "app")
        makeSearchable()
    }

    /// Follows an `engram://` link (session actions, handoff) through `LinkHandler`.
    @discardableResult
    public func follow(_ link: DeepLink) throws -> LinkOutcome {
        let out = try LinkHandler(library: library, source: "app").perform(link)
        makeSearchable()
        return out
    }

    func makeSearchable() {
        _ = try? IndexClient().makeSearchable(library)
    }

    // MARK: Learning

    public struct CurriculumRow {
        public var id: String
        public var title: String
        public var done: Int
        public var total: Int
        public var nextTopic: String?
    }

    public struct Learning {
        public var curricula: [CurriculumRow]
        public var session: Session?
        public var sessionTopic: String?
        public var days: [(day: String, minutes: Int)]
        public var perCurriculum: [(title: String, minutes: Int)]
    }

    public func learning() throws -> Learning {
        let store = library.store
        let curricula = try store.curricula().map { c -> CurriculumRow in
            let topics = try store.topics(of: c.id)
            return CurriculumRow(id: c.id, title: c.title, done: topics.filter(\.done).count, total: topics.count,
                                 nextTopic: topics.first { !$0.done }?.title)
        }
        let session = try store.activeSession()
        let topic = try session?.topicID.flatMap { try store.topic(id: $0)?.title }
        let analytics = try LearningAnalytics.compute(store: store, range: .month)
        return Learning(curricula: curricula, session: session, sessionTopic: topic,
                        days: analytics.days.suffix(14).map { ($0.day, $0.minutes) },
                        perCurriculum: analytics.curricula.map { ($0.title, $0.minutes) })
    }

    public func nextTopic() throws {
        try library.store.completeCurrentTopic()
        makeSearchable()
    }

    // MARK: Review, connections, handoff

    public func review(limit: Int = 30) throws -> [(id: String, title: String, strength: Double)] {
        let now = library.store.clock()
        let decay = library.config.decay
        return try Review(library: library).due(limit: limit).map { ($0.id, $0.title, decay.score(of: $0, at: now)) }
    }

    public func graph(_ id: String, depth: Int) throws -> ConnectionGraph {
        try ConnectionGraph.build(store: library.store, center: id, depth: depth)
    }

    public struct HandoffOffer {
        public var itemID: String
        public var device: String
        public var text: String
    }

    public func handoffOffer() -> HandoffOffer? {
        guard let offer = (try? library.handoff?.offers())??.first else { return nil }
        return HandoffOffer(itemID: offer.itemID, device: offer.activity.deviceName, text: offer.text)
    }

    /// Runs `work` on the data queue and hands its outcome to `done` on the GLib main loop.
    public func async<T>(_ work: @escaping () throws -> T, _ done: @escaping (Result<T, Error>) -> Void) {
        queue.async {
            let outcome = Result { try work() }
            Main.async { done(outcome) }
        }
    }
}
