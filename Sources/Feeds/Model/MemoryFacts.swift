/// What feeds know about a memory without its text: enough to count, decay and choose.
public struct MemoryFacts: Sendable, Equatable {
    public var id: String
    public var kind: MemoryKind
    public var tags: [String]
    public var context: String?
    /// Seconds since 1970.
    public var created: Double
    /// Seconds since 1970 of the last use (or creation).
    public var lastReinforced: Double
    public var useCount: Int
    public var pinned: Bool
    /// How many links touch this memory.
    public var links: Int

    /// Creates facts; `lastReinforced` defaults to `created`.
    public init(id: String, kind: MemoryKind = .note, tags: [String] = [], context: String? = nil, created: Double,
                lastReinforced: Double? = nil, useCount: Int = 0, pinned: Bool = false, links: Int = 0) {
        self.id = id
        self.kind = kind
        self.tags = tags
        self.context = context
        self.created = created
        self.lastReinforced = lastReinforced ?? created
        self.useCount = useCount
        self.pinned = pinned
        self.links = links
    }
}

/// A memory with its text, for the feeds that show it.
public struct FeedMemory: Sendable, Equatable {
    public var facts: MemoryFacts
    /// The stored text, decoded leniently (invalid UTF-8 becomes U+FFFD).
    public var content: String

    /// The first non-empty line, trimmed, without leading `#`: what lists show (as `Memory.title` does).
    public let title: String

    /// Creates a memory.
    public init(facts: MemoryFacts, content: String) {
        self.facts = facts
        self.content = content
        title = Self.title(of: content)
    }

    /// The memory's id.
    public var id: String { facts.id }

    /// The most characters of a title kept; a longer first line is cut (feeds show far less).
    static let titleLimit = 4096

    /// The title rule shared with the core model, over at most `titleLimit` characters of the first line.
    static func title(of content: String) -> String {
        let head = content.prefix(titleLimit)
        var line = firstNonBlankLine(head)
        if line.allSatisfy(\.isWhitespace) && head.endIndex != content.endIndex { line = firstNonBlankLine(content[...]) }
        var t = trimBlanks(line.prefix(titleLimit))
        while t.hasPrefix("#") { t.removeFirst() }
        return String(trimBlanks(Substring(t)))
    }

    /// The first line holding more than whitespace (or the whole text), found without splitting all of it.
    private static func firstNonBlankLine(_ content: Substring) -> Substring {
        var start = content.startIndex
        while start < content.endIndex {
            let end = content[start...].firstIndex(where: \.isNewline) ?? content.endIndex
            let line = content[start..<end]
            if !line.allSatisfy(\.isWhitespace) { return line }
            start = end < content.endIndex ? content.index(after: end) : end
        }
        return content
    }

    /// Trims spaces and tabs (Unicode space separators), as `CharacterSet.whitespaces` does.
    private static func trimBlanks(_ s: Substring) -> String {
        func blank(_ c: Character) -> Bool {
            c.unicodeScalars.count == 1 && (c == "\t" || c.unicodeScalars.first!.properties.generalCategory == .spaceSeparator)
        }
        guard let start = s.firstIndex(where: { !blank($0) }) else { return "" }
        let end = s.lastIndex(where: { !blank($0) })!
        return String(s[start...end])
    }
}

/// One logged use of a memory (the store's `activity` table).
public struct ActivityFact: Sendable, Equatable {
    /// The actions feeds care about.
    public enum Action: String, Sendable {
        case open, activate, review, pin
        /// Whether this use strengthens the memory (the others only log).
        public var reinforces: Bool { self != .pin }
    }

    public var memoryID: String
    public var action: Action
    /// Seconds since 1970.
    public var at: Double

    /// Creates a fact.
    public init(memoryID: String, action: Action, at: Double) {
        self.memoryID = memoryID
        self.action = action
        self.at = at
    }
}

/// Counts over the rest of the collection.
public struct CollectionCounts: Sendable, Equatable {
    public var links = 0
    public var curricula = 0
    public var topics = 0
    public var topicsDone = 0

    /// Creates counts.
    public init(links: Int = 0, curricula: Int = 0, topics: Int = 0, topicsDone: Int = 0) {
        self.links = links
        self.curricula = curricula
        self.topics = topics
        self.topicsDone = topicsDone
    }
}
