import EngramCore
import Foundation
import Indexer

/// Who is searching: each surface asks for the same search with its own page size and snippet.
public enum SearchSurface: Sendable, Equatable {
    /// GNOME Shell, KRunner and `org.engram.Engram1.Search`: as the user types (the last word a prefix), one-line
    /// snippets.
    case desktop(limit: Int)
    /// `engram search`, intents and links: `limit` or the configured number of results.
    case command(limit: Int? = nil, partial: Bool = false)
}

extension Library {
    /// The one place a query becomes what the index runs, for every surface: the configured decay weight and
    /// result count, the store's clock, and the active context (its memories and those without one).
    ///
    /// Nil when nothing may be shown: the `sleep` context is on. `activeContext`, when given, is the store's as the
    /// caller last read it (the daemon keeps it between searches while the store is unchanged).
    public func searchRequest(_ query: String, for surface: SearchSurface, activeContext: String?? = .none) throws -> SearchRequest? {
        let context = try activeContext ?? store.activeContext()
        if context == "sleep" { return nil }
        var request = SearchRequest(query: query)
        request.decayWeight = config.searchDecayWeight
        request.now = store.clock()
        request.context = context
        switch surface {
        case .desktop(let limit):
            request.partial = true
            request.limit = limit
            request.snippetLength = Self.desktopSnippetLength
            request.exactTotal = false  // no desktop surface shows a count
        case .command(let limit, let partial):
            request.partial = partial
            request.limit = limit ?? config.searchLimit
        }
        return request
    }

    /// The snippet the desktop's one-line descriptions are cut from, in bytes.
    public static let desktopSnippetLength = 120

    /// What `engram search` and the intents say when the sleep context hides everything.
    public static let sleepNotice = "the sleep context is on: nothing is shown. `engram context clear` turns it off."
}

extension SearchHit {
    /// The hit's `engram://` link, its id on the bus and in every surface's output.
    public var link: DeepLink {
        switch kind {
        case .memory: .memory(id: id)
        case .curriculum: .curriculum(id: id)
        case .topic: .topic(id: id)
        }
    }
}
