import Foundation

/// One page of search results with an optional "did you mean" and notice.
public struct SearchResults: Sendable, Equatable {
    /// The hits of this page, best first.
    public var hits: [SearchHit]
    /// Xapian's estimate of how many items match in total.
    public var estimatedTotal: Int
    /// A spelling-corrected query to offer as "did you mean"; only when it differs, never applied.
    public var suggestion: String?
    /// Something the user should know about how the query was run, e.g. that it was treated as plain words.
    public var notice: String?

    /// Creates a page of results.
    public init(hits: [SearchHit], estimatedTotal: Int, suggestion: String? = nil, notice: String? = nil) {
        self.hits = hits
        self.estimatedTotal = estimatedTotal
        self.suggestion = suggestion
        self.notice = notice
    }
}
