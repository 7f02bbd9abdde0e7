import Foundation

/// One matching item, complete enough to display without a store lookup.
public struct SearchHit: Sendable, Equatable {
    /// The item's kind.
    public var kind: IndexKind
    /// The item's id in the store.
    public var id: String
    /// The item's title.
    public var title: String
    /// Memory type, if any.
    public var type: String?
    /// The item's tags as given.
    public var tags: [String]
    /// The item's context, if any.
    public var context: String?
    /// The curriculum the item belongs to, if any.
    public var curriculumID: String?
    /// When the item was created.
    public var created: Date
    /// When the item expires; nil if never.
    public var expiry: Date?
    /// Relevance from 0 to 1 (Xapian's percentage / 100).
    public var relevance: Double
    /// Position in the whole result list, 0 for the best hit.
    public var rank: Int
    /// The matched words in context.
    public var snippet: Snippet
    /// Found by meaning alone: none of the query's words decided it (its snippet may be empty).
    public var byMeaning = false
    /// False for a hit past the request's `detailCount`: only `kind`, `id`, `relevance` and `rank` are known; the
    /// rest is empty and must be read from the store if it is shown.
    public var isComplete = true

    /// Creates a hit.
    public init(
        kind: IndexKind, id: String, title: String, type: String?, tags: [String], context: String?,
        curriculumID: String?, created: Date, expiry: Date?, relevance: Double, rank: Int, snippet: Snippet
    ) {
        self.kind = kind
        self.id = id
        self.title = title
        self.type = type
        self.tags = tags
        self.context = context
        self.curriculumID = curriculumID
        self.created = created
        self.expiry = expiry
        self.relevance = relevance
        self.rank = rank
        self.snippet = snippet
    }
}
