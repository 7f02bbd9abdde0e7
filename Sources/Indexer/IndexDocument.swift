import Foundation

/// What the indexer stores for one item: its identity, searchable text, filters and lifetime.
public struct IndexDocument: Sendable, Equatable {
    /// The item's kind; together with `id` it identifies the document.
    public var kind: IndexKind
    /// The item's id in the store.
    public var id: String
    /// Memory: the first line of its content; curriculum or topic: its title.
    public var title: String
    /// The full text: memory content, curriculum description or topic notes.
    public var body: String
    /// Memory type (note, idea, task, quote, learning); searchable as `type:`.
    public var type: String?
    /// Tags, searchable as `tag:` (case-insensitive).
    public var tags: [String]
    /// Context such as work or personal; searchable as `ctx:`.
    public var context: String?
    /// Topics: their curriculum; curricula: their own id; searchable as `in:`.
    public var curriculumID: String?
    /// When the item was created; searchable as `created:` date ranges.
    public var created: Date
    /// When the item leaves search results; nil means it never expires.
    public var expiry: Date?

    /// Creates a document; optional fields default to absent.
    public init(
        kind: IndexKind,
        id: String,
        title: String,
        body: String,
        type: String? = nil,
        tags: [String] = [],
        context: String? = nil,
        curriculumID: String? = nil,
        created: Date,
        expiry: Date? = nil
    ) {
        self.kind = kind
        self.id = id
        self.title = title
        self.body = body
        self.type = type
        self.tags = tags
        self.context = context
        self.curriculumID = curriculumID
        self.created = created
        self.expiry = expiry
    }
}
