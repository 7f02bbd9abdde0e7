import CXapian
#if canImport(EngramCore)
import EngramCore  // Limits, WallClock; the query fuzzer compiles this file with those EngramRules files instead
#endif
import Foundation

/// A read-only view of the index for searching; use one per thread.
///
/// A reader sees the index as of `open` or its last `reopen()`; call `reopen()` to see
/// later commits. If a writer discards the revision being read, every method reopens
/// and retries once by itself.
public final class IndexReader {
    /// The path the reader was opened at (stub file or database directory).
    public let path: String
    private let handle: OpaquePointer
    /// How many times a read recovered from a discarded revision by reopening (for tests and diagnostics).
    private(set) var modifiedRecoveries = 0

    private init(path: String, handle: OpaquePointer) {
        self.path = path
        self.handle = handle
    }

    deinit {
        cx_database_destroy(handle)
    }

    /// Opens the index at path read-only; throws `.notFound` if there is none.
    public static func open(at path: String) throws -> IndexReader {
        var handle: OpaquePointer?
        try shimCall { cx_database_open(path, &handle, $0) }
        return IndexReader(path: path, handle: handle!)
    }

    /// Moves to the latest committed revision, following a rebuilt index's swapped stub file.
    public func reopen() throws {
        try shimCall { cx_database_reopen(handle, $0) }
    }

    /// Adds the database at `path` (a directory or stub) to this reader: searches, counts and spelling then treat
    /// both as one collection with one set of statistics, so hits from either are ranked against each other.
    public func add(databaseAt path: String) throws {
        try shimCall { cx_database_add(handle, path, $0) }
    }

    /// Runs a search; unparsable queries are retried as plain words with a notice.
    public func search(_ request: SearchRequest) throws -> SearchResults {
        guard request.query.utf8.count <= Limits.maxQueryBytes else {
            throw IndexError.invalidArgument(
                "the search query is \(request.query.utf8.count) bytes long; the limit is \(Limits.maxQueryBytes)")
        }
        var results: SearchResults
        var plainWords = false
        do {
            results = try readRetryingIfModified { try runSearch(request, plainWords: false) }
        } catch IndexError.queryParse(let message) {
            plainWords = true
            do {
                results = try readRetryingIfModified { try runSearch(request, plainWords: true) }
            } catch IndexError.queryParse {
                // Xapian's parser refuses even some plain-word readings (the fuzzer found one: carriage returns, `-`
                // and `NOT` in 65 bytes); then the letters and digits alone, in lower case, are searched.
                var words = request
                words.query = Self.lettersAndDigits(request.query)
                results = try readRetryingIfModified { try runSearch(words, plainWords: true) }
            }
            results.notice = "Your search was treated as plain words because its syntax could not be used (\(message))."
        }
        // Nothing has every word (or the quoted phrase, or a word written as syntax: `.wav`, `'Pandoc'`, `100%`): a
        // search typed whole gets the items with some of its words instead, best first (BM25 over OR), and says so;
        // never one that narrows on purpose (a field, `-word`, an operator).
        // It never comes back empty for a question whose answer lacks one of its words (15 of the 500 Debian
        // known-item queries did). Search as you type (`partial`) keeps narrowing: there every word still counts.
        if results.hits.isEmpty, results.estimatedTotal == 0, !request.partial, request.natural, request.offset == 0,
           !QueryShape.narrowsOnPurpose(request.query) {
            var some = request
            some.query = Self.lettersAndDigits(request.query)
            if some.query.split(whereSeparator: \.isWhitespace).count >= 2 {
                var found = try readRetryingIfModified { try runSearch(some, plainWords: true, spelling: false, anyWords: true) }
                if !found.hits.isEmpty {
                    found.notice = [results.notice, "Nothing matched your search as written; these have some of its words."]
                        .compactMap { $0 }.joined(separator: " ")
                    found.suggestion = results.suggestion
                    results = found
                }
            }
        }
        // A suggestion that cannot itself be searched is no help (Xapian's corrected query may not parse).
        if let suggestion = results.suggestion,
           (try? isUsefulSuggestion(suggestion, for: request, plainWords: plainWords)) != true {
            results.suggestion = nil
        }
        return results
    }

    /// The query's letters and digits, in lower case (so no word reads as an operator), everything else a space.
    public static func lettersAndDigits(_ query: String) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(query.unicodeScalars.count)
        for scalar in query.lowercased().unicodeScalars {
            out.unicodeScalars.append(scalar.properties.isAlphabetic || scalar.properties.numericType != nil ? scalar : " ")
        }
        return out
    }

    /// Whether a spelling suggestion may be offered: it changes only plain words of the query (never a field, a
    /// date, an operator or a quoted phrase's quotes), and searching for it finds something.
    func isUsefulSuggestion(_ suggestion: String, for request: SearchRequest, plainWords: Bool) throws -> Bool {
        let typed = request.query.split(whereSeparator: \.isWhitespace)
        let offered = suggestion.split(whereSeparator: \.isWhitespace)
        guard typed.count == offered.count else { return false }
        let changed = zip(typed, offered).filter { $0 != $1 }.map { (Self.punctuated($0.0), Self.punctuated($0.1)) }
        guard !changed.isEmpty, changed.allSatisfy({ typed, offered in
            typed.around == offered.around && Self.isPlainWord(typed.word) && Self.isPlainWord(offered.word)
        }) else { return false }
        var probe = request
        probe.query = suggestion
        probe.offset = 0
        probe.limit = 1
        probe.snippetLength = 0
        let found = try readRetryingIfModified { try runSearch(probe, plainWords: plainWords, spelling: false) }
        return !found.hits.isEmpty
    }

    /// A token without the quotes, brackets and signs around it (`"word`, `-word`, `(word)`), and those.
    static func punctuated(_ token: Substring) -> (word: Substring, around: String) {
        let marks: Set<Character> = ["\"", "(", ")", "+", "-"]
        var word = token
        while let first = word.first, marks.contains(first) { word = word.dropFirst() }
        while let last = word.last, marks.contains(last) { word = word.dropLast() }
        return (word, String(token[..<word.startIndex]) + "|" + String(token[word.endIndex...]))
    }

    /// A word as typed, with no query syntax in it: letters and digits (an apostrophe inside), not an operator.
    static func isPlainWord<S: StringProtocol>(_ token: S) -> Bool {
        guard let first = token.first, first.isLetter || first.isNumber,
              token.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "'" || $0 == "\u{2019}" }) else { return false }
        return !["AND", "OR", "NOT", "XOR", "NEAR", "ADJ"].contains(String(token))
    }

    /// Finds memories that share the most significant words with an item, best first; empty if the item is not indexed.
    ///
    /// Memories expired at `now` are left out, as in search.
    public func related(kind: IndexKind, id: String, limit: Int, now: Date = Date(timeIntervalSince1970: WallClock.now())) throws -> [RelatedHit] {
        try readRetryingIfModified {
            let arena = ByteArena()
            var results: OpaquePointer?
            try shimCall {
                cx_database_related(handle, arena.bytes(kind.rawValue), arena.bytes(id), UInt32(clamping: max(limit, 0)),
                                    now.timeIntervalSince1970, &results, $0)
            }
            return ShimResults(taking: results).entries.map {
                RelatedHit(kind: $0.document.kind, id: $0.document.id, title: $0.document.title, score: $0.relevance)
            }
        }
    }

    /// Counts the documents of a kind, or all documents when kind is nil.
    public func documentCount(kind: IndexKind?) throws -> Int {
        try readRetryingIfModified {
            let arena = ByteArena()
            var count: UInt64 = 0
            try shimCall { cx_database_document_count(handle, arena.bytes(kind?.rawValue), &count, $0) }
            return Int(clamping: count)
        }
    }

    /// Whether an item is in the index.
    public func contains(kind: IndexKind, id: String) throws -> Bool {
        try readRetryingIfModified {
            let arena = ByteArena()
            var found: Int32 = 0
            try shimCall { cx_database_contains(handle, arena.bytes(kind.rawValue), arena.bytes(id), &found, $0) }
            return found != 0
        }
    }

    /// The ids of every indexed item of a kind (to reconcile the index with the store).
    public func allIDs(kind: IndexKind) throws -> [String] {
        try readRetryingIfModified {
            let arena = ByteArena()
            var list: OpaquePointer?
            try shimCall { cx_database_all_ids(handle, arena.bytes(kind.rawValue), &list, $0) }
            return takeStrings(list)
        }
    }

    /// The last outbox sequence number applied to the index, 0 if none.
    public func lastAppliedSeq() throws -> Int64 {
        try readRetryingIfModified {
            var seq: Int64 = 0
            try shimCall { cx_database_last_seq(handle, &seq, $0) }
            return seq
        }
    }

    /// The raw Xapian terms of an item, sorted; empty if it is not indexed (for inspection and tests).
    public func documentTerms(kind: IndexKind, id: String) throws -> [String] {
        try readRetryingIfModified {
            let arena = ByteArena()
            var list: OpaquePointer?
            try shimCall { cx_database_document_terms(handle, arena.bytes(kind.rawValue), arena.bytes(id), &list, $0) }
            return takeStrings(list)
        }
    }

    /// Every word in the spelling ("did you mean") data, sorted (for inspection and tests).
    public func spellingWords() throws -> [String] {
        try readRetryingIfModified {
            var list: OpaquePointer?
            try shimCall { cx_database_spellings(handle, &list, $0) }
            return takeStrings(list)
        }
    }

    /// An item's terms followed by `spelling:<word>` for each of its plain words present in the spelling data.
    public func termsAndSpelling(kind: IndexKind, id: String) throws -> [String] {
        let terms = try documentTerms(kind: kind, id: id)
        let spelling = Set(try spellingWords())
        return terms + terms.filter { spelling.contains($0) }.map { "spelling:" + $0 }
    }

    /// Runs one read; on a discarded revision reopens and runs it once more.
    private func readRetryingIfModified<T>(_ read: () throws -> T) throws -> T {
        do {
            return try read()
        } catch IndexError.databaseModified {
            try reopen()
            modifiedRecoveries += 1
            return try read()
        }
    }

    /// The items among `items` (kind, id) that pass the request's filters (kinds, context, expiry), in the order of
    /// `items`, each with a snippet of the query's words it shares (if any); for meaning search's neighbours.
    public func fetch(_ request: SearchRequest, items: [(IndexKind, String)]) throws -> [SearchHit] {
        guard !items.isEmpty else { return [] }
        return try readRetryingIfModified {
            let arena = ByteArena()
            let kinds = request.kinds.map(\.rawValue).sorted()
            var flags: UInt32 = 0
            if request.includeExpired { flags |= CX_SEARCH_INCLUDE_EXPIRED.rawValue }
            var options = cx_search_options(
                query: arena.bytes(request.query), kinds: arena.array(kinds), kind_count: kinds.count, offset: 0,
                limit: UInt32(clamping: items.count), flags: flags, now: request.now.timeIntervalSince1970,
                context: arena.bytes(request.context), decay_weight: 0,
                snippet_length: UInt32(clamping: max(request.snippetLength, 0)), snippet_count: 0, detail_count: 0)
            let itemKinds = arena.array(items.map(\.0.rawValue))
            let itemIDs = arena.array(items.map(\.1))
            var results: OpaquePointer?
            try shimCall { cx_database_fetch(handle, &options, itemKinds, itemIDs, items.count, &results, $0) }
            let found = ShimResults(taking: results).entries.map { entry in
                SearchHit(kind: entry.document.kind, id: entry.document.id, title: entry.document.title,
                          type: entry.document.type, tags: entry.document.tags, context: entry.document.context,
                          curriculumID: entry.document.curriculumID, created: entry.document.created,
                          expiry: entry.document.expiry, relevance: 0, rank: 0, snippet: Snippet(shimOutput: entry.snippet))
            }
            let order = Dictionary(items.enumerated().map { ($1.0.rawValue + ":" + $1.1, $0) }, uniquingKeysWith: { a, _ in a })
            return found.sorted { (order[$0.kind.rawValue + ":" + $0.id] ?? .max) < (order[$1.kind.rawValue + ":" + $1.id] ?? .max) }
        }
    }

    /// Performs one search through the shim.
    private func runSearch(_ request: SearchRequest, plainWords: Bool, spelling: Bool = true, anyWords: Bool = false) throws -> SearchResults {
        let arena = ByteArena()
        let kinds = request.kinds.map(\.rawValue).sorted()
        var flags: UInt32 = spelling ? CX_SEARCH_SPELLING.rawValue : 0
        if request.partial { flags |= CX_SEARCH_PARTIAL.rawValue }
        if plainWords { flags |= CX_SEARCH_PLAIN_WORDS.rawValue }
        if request.includeExpired { flags |= CX_SEARCH_INCLUDE_EXPIRED.rawValue }
        if anyWords || (request.natural && QueryShape.isNatural(request.query)) { flags |= CX_SEARCH_NATURAL.rawValue }
        if !request.exactTotal { flags |= CX_SEARCH_ESTIMATE_TOTAL.rawValue }
        var options = cx_search_options(
            query: arena.bytes(request.query),
            kinds: arena.array(kinds),
            kind_count: kinds.count,
            offset: UInt32(clamping: max(request.offset, 0)),
            limit: UInt32(clamping: max(request.limit, 0)),
            flags: flags,
            now: request.now.timeIntervalSince1970,
            context: arena.bytes(request.context),
            decay_weight: request.decayWeight,
            snippet_length: UInt32(clamping: max(request.snippetLength, 0)),
            snippet_count: UInt32(clamping: max(request.snippetCount, 0)),
            detail_count: UInt32(clamping: max(request.detailCount, 0)))
        var results: OpaquePointer?
        try shimCall { cx_database_search(handle, &options, &results, $0) }
        let page = ShimResults(taking: results)
        let offset = max(request.offset, 0)
        let hits = page.entries.enumerated().map { index, entry in
            var hit = SearchHit(
                kind: entry.document.kind, id: entry.document.id, title: entry.document.title,
                type: entry.document.type, tags: entry.document.tags, context: entry.document.context,
                curriculumID: entry.document.curriculumID, created: entry.document.created,
                expiry: entry.document.expiry, relevance: entry.relevance, rank: offset + index,
                snippet: Snippet(shimOutput: entry.snippet))
            hit.isComplete = entry.isComplete
            return hit
        }
        let suggestion = page.corrected.flatMap { $0.isEmpty || $0 == request.query ? nil : $0 }
        return SearchResults(hits: hits, estimatedTotal: page.estimatedTotal, suggestion: suggestion)
    }
}
