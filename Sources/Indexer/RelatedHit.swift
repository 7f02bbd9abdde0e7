/// A memory related to another item, with how strongly it is related.
public struct RelatedHit: Sendable, Equatable {
    /// The related item's kind (always memory).
    public var kind: IndexKind
    /// The related item's id.
    public var id: String
    /// The related item's title.
    public var title: String
    /// Similarity from 0 to 1.
    public var score: Double

    /// Creates a related hit.
    public init(kind: IndexKind, id: String, title: String, score: Double) {
        self.kind = kind
        self.id = id
        self.title = title
        self.score = score
    }
}
