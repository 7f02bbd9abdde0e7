#if canImport(EngramCore)
import EngramCore  // WallClock; the query fuzzer compiles this file with EngramRules/WallClock.swift instead
#endif
import Foundation

/// A search as the user typed it, with the filters and ranking knobs around it.
///
/// Query syntax: words are ANDed (each narrows the results); `"a phrase"`; `-word` or
/// `NOT word` to exclude; `OR`, `AND`, brackets; `word*` wildcards; `title:word`;
/// filters `tag:x`, `type:x`, `ctx:x`, `in:<curriculum id>`, `kind:memory|curriculum|topic`
/// (case-insensitive except `in:`; quote values with spaces: `tag:"two words"`);
/// creation dates `created:2024-01-01..2024-06-30`, `created:..2024-06-30`,
/// `created:2024-01-01..` (also YYYYMMDD). A query Xapian cannot parse is searched as
/// plain words and `SearchResults.notice` says so.
public struct SearchRequest: Sendable, Equatable {
    /// The text the user typed.
    public var query: String
    /// Kinds to search; empty finds nothing.
    public var kinds: Set<IndexKind> = Set(IndexKind.allCases)
    /// Maximum number of hits to return.
    public var limit = 20
    /// Number of best hits to skip (for paging).
    public var offset = 0
    /// Search-as-you-type: the last word is a prefix unless followed by whitespace.
    public var partial = true
    /// Also return items whose expiry has passed.
    public var includeExpired = false
    /// The time expiry and decay are measured against.
    public var now = Date(timeIntervalSince1970: WallClock.now())
    /// Only items in this context, plus items that have no context (curricula, unfiled memories); nil: all.
    public var context: String? = nil
    /// How strongly remaining life (freshness) is blended into relevance; 0 ranks by text alone.
    public var decayWeight = 1.0
    /// Target snippet length in bytes; 0 skips snippets.
    public var snippetLength = 160
    /// Snippets for only the first this many hits (0: every hit): GNOME Shell shows five of the twenty ids it asks
    /// for, and each snippet is a pass over a memory's text.
    public var snippetCount = 0
    /// Only the first this many hits are read whole (0: every hit); the rest carry only their kind and id
    /// (`SearchHit.isComplete` false), read without the stored text: GNOME Shell asks for twenty ids and shows five.
    /// Searches by meaning read every hit whole, since fusion may move any of them up.
    public var detailCount = 0
    /// Whether `SearchResults.estimatedTotal` must be exact up to a hundred matches (what `engram search` says);
    /// false lets matching stop once the page is certain (surfaces that show no count).
    public var exactTotal = true
    /// Read a question in ordinary words as one (`QueryShape.isNatural`): all-words matches first, then ranked
    /// matches of some of the words. False keeps every word required.
    public var natural = true

    /// Creates a request for a query with default options.
    public init(query: String) {
        self.query = query
    }

    /// Creates a request with every option spelled out.
    public init(
        query: String,
        kinds: Set<IndexKind> = Set(IndexKind.allCases),
        limit: Int = 20,
        offset: Int = 0,
        partial: Bool = true,
        includeExpired: Bool = false,
        now: Date = Date(timeIntervalSince1970: WallClock.now()),
        context: String? = nil,
        decayWeight: Double = 1.0,
        snippetLength: Int = 160
    ) {
        self.query = query
        self.kinds = kinds
        self.limit = limit
        self.offset = offset
        self.partial = partial
        self.includeExpired = includeExpired
        self.now = now
        self.context = context
        self.decayWeight = decayWeight
        self.snippetLength = snippetLength
    }
}
