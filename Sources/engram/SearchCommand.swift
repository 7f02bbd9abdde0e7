import ArgumentParser
import EngramCore
import Foundation
import EngramApp
import Indexer

/// `engram search`: full-text search with snippets.
struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search memories, curricula and topics.",
        discussion: """
            Words are ANDed; the last word matches as a prefix. Use "quoted phrases", OR, NOT, \
            tag:NAME, type:idea, ctx:work, in:CURRICULUM, title:WORD and created:2026-01-01..2026-06-30.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(name: .shortAndLong, help: "At most this many results.")
    var limit: Int?

    @Flag(help: "Include memories that have faded from search.")
    var all = false

    @Option(help: "Only memories, curricula or topics (repeatable).")
    var kind: [IndexKind] = []

    @Flag(help: "Let the last word match as a prefix (as search-as-you-type does): pyth finds python.")
    var partial = false

    @Flag(help: "Print results as JSON (schema version 1).")
    var json = false

    @OptionGroup var pause: PauseOption

    @Argument(help: "The query.")
    var query: [String]

    func validate() throws {
        if let l = limit, l < 1 || l > 10_000 { throw ValidationError("--limit must be between 1 and 10000") }
        if query.joined().allSatisfy(\.isWhitespace) { throw ValidationError("give something to search for") }
    }

    func run() throws {
        defer { pause.waitIfAsked() }
        try Terminal.reporting {
            let library = try global.library()
            let text = query.joined(separator: " ")
            let result = try library.search(text, for: .command(limit: limit, partial: partial), includeFaded: all) { request in
                if !kind.isEmpty { request.kinds = Set(kind) }
            }
            try? library.store.logSearch(text, source: "cli")
            if json {
                try Terminal.printJSON(SearchJSON(query: text, result: result))
            } else {
                SearchPrinter.print(result, query: text)
            }
            if result.hits.isEmpty { throw ExitCode(1) }
        }
    }
}

extension IndexKind: ExpressibleByArgument {}

/// Human-readable search output.
enum SearchPrinter {
    static func print(_ r: LibrarySearchResult, query: String) {
        if let n = r.notice { Terminal.warn(n) }
        if r.hits.isEmpty {
            var line = "No results for \(query)."
            if let s = r.suggestion { line += " Did you mean: \(Terminal.safe(s))?" }
            Swift.print(line)
            return
        }
        for hit in r.hits {
            var meta = [hit.kind == .memory ? (hit.type ?? "memory") : hit.kind.rawValue]
            if !hit.tags.isEmpty { meta.append(hit.tags.joined(separator: ", ")) }
            meta.append(Format.day(hit.created))
            if r.fadedIDs.contains(hit.id) && hit.kind == .memory { meta.append("faded") }
            if hit.byMeaning { meta.append("by meaning") }
            Swift.print(Terminal.styled(hit.id, .id) + "  " + Terminal.styled(Terminal.safe(Format.truncate(hit.title, 72)), .bold)
                        + "  " + Terminal.styled(meta.joined(separator: " · "), .dim))
            let snippet = Format.snippet(hit.snippet).replacingOccurrences(of: "\n", with: " ")
            if !snippet.isEmpty && hit.snippet.plainText != hit.title { Swift.print("    " + snippet) }
        }
        var footer = "\(r.hits.count) of about \(max(r.estimatedTotal, r.hits.count)) results"
        if let s = r.suggestion { footer += " · did you mean: \(Terminal.safe(s))?" }
        Swift.print(Terminal.styled(footer, .dim))
    }
}

/// Search results as `--json` prints them.
struct SearchJSON: Encodable {
    struct Hit: Encodable {
        var kind: String
        var id: String
        var title: String
        var type: String?
        var tags: [String]
        var context: String?
        var curriculum: String?
        var created: Date
        var expires: Date?
        var relevance: Double
        var snippet: String
        var highlights: [String]
        var faded: Bool
        /// Found by meaning alone (none of the query's words decided it).
        var byMeaning: Bool
    }
    var version = 1
    var query: String
    var total: Int
    var suggestion: String?
    var notice: String?
    var results: [Hit]

    init(query: String, result r: LibrarySearchResult) {
        self.query = query
        total = max(r.estimatedTotal, r.hits.count)
        suggestion = r.suggestion
        notice = r.notice
        results = r.hits.map { h in
            Hit(kind: h.kind.rawValue, id: h.id, title: h.title, type: h.type, tags: h.tags, context: h.context,
                curriculum: h.curriculumID, created: h.created, expires: h.expiry, relevance: (h.relevance * 1000).rounded() / 1000,
                snippet: h.snippet.plainText, highlights: h.snippet.segments.filter(\.highlighted).map(\.text),
                faded: h.kind == .memory && r.fadedIDs.contains(h.id), byMeaning: h.byMeaning)
        }
    }
}
