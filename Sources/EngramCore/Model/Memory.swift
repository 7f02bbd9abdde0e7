import Foundation
import GRDB

/// One thing a person chose to remember: a note, idea, task, quote or learning.
public struct Memory: Codable, Sendable, Equatable, Identifiable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "memory"

    public var id: String
    public var content: String
    public var type: MemoryType
    public var tags: [String]
    public var context: String?
    public var created: Date
    public var updated: Date
    public var lastReinforced: Date
    public var useCount: Int
    public var pinned: Bool
    public var source: String?

    /// Columns of the `memory` table, for typed queries.
    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let content = Column(CodingKeys.content)
        public static let type = Column(CodingKeys.type)
        public static let tags = Column(CodingKeys.tags)
        public static let context = Column(CodingKeys.context)
        public static let created = Column(CodingKeys.created)
        public static let updated = Column(CodingKeys.updated)
        public static let lastReinforced = Column(CodingKeys.lastReinforced)
        public static let useCount = Column(CodingKeys.useCount)
        public static let pinned = Column(CodingKeys.pinned)
        public static let source = Column(CodingKeys.source)
    }

    /// Creates a memory; timestamps default to `created`.
    public init(
        id: String, content: String, type: MemoryType = .note, tags: [String] = [],
        context: String? = nil, created: Date, updated: Date? = nil, lastReinforced: Date? = nil,
        useCount: Int = 0, pinned: Bool = false, source: String? = nil
    ) {
        self.id = id
        self.content = content
        self.type = type
        self.tags = tags
        self.context = context
        self.created = created
        self.updated = updated ?? created
        self.lastReinforced = lastReinforced ?? created
        self.useCount = useCount
        self.pinned = pinned
        self.source = source
    }

    /// The first non-empty line of the content, trimmed: what lists and search results show.
    public var title: String {
        let line = content.split(whereSeparator: \.isNewline)
            .first { !$0.allSatisfy(\.isWhitespace) } ?? Substring(content)
        var t = line.trimmingCharacters(in: .whitespaces)
        while t.hasPrefix("#") { t.removeFirst() }
        return t.trimmingCharacters(in: .whitespaces)
    }
}

/// What a caller provides to capture a new memory.
public struct MemoryDraft: Sendable, Equatable {
    public var content: String
    public var type: MemoryType
    public var tags: [String]
    public var context: String?
    public var source: String?
    public var pinned: Bool

    /// Creates a draft; tags are normalised when stored.
    public init(content: String, type: MemoryType = .note, tags: [String] = [], context: String? = nil, source: String? = nil, pinned: Bool = false) {
        self.content = content
        self.type = type
        self.tags = tags
        self.context = context
        self.source = source
        self.pinned = pinned
    }
}
