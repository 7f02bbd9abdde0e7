import EngramCore
import Foundation
import EngramApp
import Indexer
import Testing

/// Whatever users type or paste gives results or a typed error: never a crash, never a hang.
@Suite("Hostile input")
struct HostileInputTests {
    let dir = TemporaryDirectory()

    @Test func oneMegabyteBodyIsIndexedSearchedAndSnippetedQuickly() throws {
        // About 1 MB of varied words (cheap to generate, unlike per-character randomness).
        let syllables = ["ka", "lo", "mi", "nu", "pe", "ra", "si", "to", "ve", "zu", "qu", "xa"]
        var words: [String] = []
        words.reserveCapacity(160_000)
        for index in 0..<160_000 {
            let first: String = syllables[index % 12], second: String = syllables[(index / 12) % 12]
            words.append(first + second + syllables[(index / 144) % 12] + String(index % 7))
        }
        words[10] = "needleatstart"
        words[words.count - 5] = "needleatend"
        let body = "Huge paste\n" + words.joined(separator: " ") + " \u{02}markers\u{03} & <tags>"
        #expect(body.utf8.count > 1_000_000)
        let writer = try makeIndex(dir, [memory("huge", body), memory("small", "A small note")])
        let reader = try IndexReader.open(at: dir.stubPath)
        let started = Date()
        let start = try search(reader, "needleatstart")
        let end = try search(reader, "needleatend")
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(start.hits.map(\.id) == ["huge"])
        #expect(end.hits.map(\.id) == ["huge"])
        #expect(start.hits[0].snippet.segments.contains(Snippet.Segment(text: "needleatstart", highlighted: true)))
        #expect(start.hits[0].snippet.plainText.utf8.count < 400)
        #expect(!end.hits[0].snippet.plainText.contains("\u{02}"))
        try writer.delete(kind: .memory, id: "huge")
        try writer.commit(lastAppliedSeq: 2)
        try reader.reopen()
        #expect(try reader.documentCount(kind: nil) == 1)
        #expect(try !reader.spellingWords().contains("needleatend"))
    }

    static let oddQueries = [
        "\"unbalanced", "unbalanced\"", "((((", "))))", "(a OR", "tag:", "tag:\"", "tag:\"\"", "tag: tag:", "created:",
        "created:..", "created:2024-13-45..2024-99-99", "created:9999999999..1", "title:", "in:", "kind:", "ctx:\"\"",
        "AND", "OR OR", "NOT", "AND NOT OR", "-", "+", "*", "**", "a*", "\"", "\"\"", "NEAR", "a NEAR/3 b", "a ADJ/99999999 b",
        "\0", "zebra\0", "\0\0tag:\0", "Qmemory:m1", "XDOMmemory", "..", "...", "1..2", "-tag:x", "+-+-", "~zebra",
        "😀🙈 zebra", "שלום עולם", "e\u{301}\u{301}\u{301}", String(repeating: "(", count: 4000),
        String(repeating: "\"a ", count: 2000), String(repeating: "tag:x ", count: 1000), String(repeating: "a*", count: 2000),
        String(repeating: "zebra ", count: 1365),
    ]

    @Test func oddQueriesGiveResultsOrATypedError() throws {
        try makeIndex(dir, [memory("m1", "A zebra in the zoo"), memory("m2", "Another zebra with stripes", tags: ["x"])])
        let reader = try IndexReader.open(at: dir.stubPath)
        for query in Self.oddQueries {
            for partial in [true, false] {
                do {
                    let results = try search(reader, query) { $0.partial = partial }
                    #expect(results.hits.count <= 2)
                } catch let error as IndexError {
                    Issue.record("\(query.prefix(40)) threw \(error)")
                }
            }
        }
        #expect(try search(reader, "zebra\0").hits.count == 2)
    }

    @Test func oversizedQueryIsRefusedWithATypedError() throws {
        try makeIndex(dir, [memory("m1", "zebra")])
        let reader = try IndexReader.open(at: dir.stubPath)
        let huge = String(repeating: "zebra ", count: 180_000)  // about 1 MB
        #expect(throws: IndexError.invalidArgument("the search query is \(huge.utf8.count) bytes long; the limit is \(Limits.maxQueryBytes)")) {
            try search(reader, huge)
        }
    }

    @Test func tenThousandRandomQueriesNeverCrashOrHang() throws {
        try makeIndex(dir, (0..<20).map { memory("m\($0)", "Random fodder \($0) with tag:like words (and) \"quotes\" & more") })
        let reader = try IndexReader.open(at: dir.stubPath)
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcxyz AND OR NOT NEAR ADJ ()\"'*+-:.._tag:type:ctx:in:kind:title:created:2024-01-01\0\t\n\\/") +
            ["é", "ß", "😀", "\u{301}", "\u{FFFD}", "\u{202E}", "\u{02}", "\u{03}"]
        let started = Date()
        var parsedAsPlainWords = 0
        for _ in 0..<10_000 {
            let length = Int.random(in: 0...40, using: &generator)
            let query = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
            do {
                let results = try search(reader, query) { $0.partial = Bool.random(using: &generator) }
                if results.notice != nil { parsedAsPlainWords += 1 }
            } catch let error as IndexError {
                Issue.record("\(query.debugDescription) threw \(error)")
            }
        }
        #expect(Date().timeIntervalSince(started) < 120)
        #expect(parsedAsPlainWords > 0)  // the fallback was exercised, not just the happy path
    }

    @Test func oddDocumentsRoundTrip() throws {
        let odd = IndexDocument(
            kind: .memory, id: "id\0with\nodd=chars\\", title: "Title\nwith newline\r\nand \\n escapes",
            body: "body\0with NUL and \u{02}markers\u{03}\n\nand a blank line", type: "",
            tags: ["", "Tag With Spaces", "tag:colon"], context: "", curriculumID: nil,
            created: Date(timeIntervalSince1970: -1_000_000.25), expiry: Date(timeIntervalSince1970: 4_102_444_800.5))
        let writer = try makeIndex(dir, [odd])
        let reader = try IndexReader.open(at: dir.stubPath)
        let hit = try #require(try search(reader, "blank line").hits.first)
        #expect(hit.id == odd.id)
        #expect(hit.title == odd.title)
        #expect(hit.tags == odd.tags)
        #expect(hit.type == "" && hit.context == "" && hit.curriculumID == nil)
        #expect(hit.created == odd.created && hit.expiry == odd.expiry)
        #expect(try search(reader, "tag:\"tag with spaces\"").hits.map(\.id) == [odd.id])
        #expect(try reader.contains(kind: .memory, id: odd.id))
        #expect(try reader.allIDs(kind: .memory) == [odd.id])
        try writer.delete(kind: .memory, id: odd.id)
        try writer.commit(lastAppliedSeq: 2)
        try reader.reopen()
        #expect(try reader.documentCount(kind: nil) == 0)
    }
}
