import Foundation
import EngramApp
import Indexer
import Testing

/// A reader's second search of a revision reads expiries from an in-memory table instead of the expiry
/// slot, and searches leave out filters that cannot remove anything. These must not change any result.
@Suite("Search fast paths")
struct ExpiryTableTests {
    let dir = TemporaryDirectory()

    static let words = ["lantern", "river", "garden", "python", "library", "kernel", "bread", "violin", "harbour",
                        "compiler", "meadow", "copper", "thunder", "saffron", "glacier", "orbit"]

    /// Several hundred memories with overlapping words and expiries from long past to never, plus a curriculum and a topic.
    static func corpus() -> [IndexDocument] {
        var documents: [IndexDocument] = []
        for i in 0..<400 {
            let picked = (0..<(2 + i % 5)).map { words[(i * 7 + $0 * (3 + i % 4)) % words.count] }
            let body = "Note \(i) about " + picked.joined(separator: " ") + (i % 3 == 0 ? "\nMore on \(picked[0]) later" : "")
            let expiry: Date? = switch i % 6 {
            case 0: nil
            case 1: testNow.addingTimeInterval(-Double(1 + i % 40) * day)  // expired
            default: testNow.addingTimeInterval(Double(1 + (i * 13) % 500) * day)
            }
            documents.append(memory("m\(i)", body, tags: i % 4 == 0 ? ["alpha"] : ["beta"],
                                    context: i % 5 == 0 ? "work" : nil, expiry: expiry))
        }
        documents.append(IndexDocument(kind: .curriculum, id: "c1", title: "Garden course", body: "river and meadow plants",
                                       curriculumID: "c1", created: testNow))
        documents.append(IndexDocument(kind: .topic, id: "t1", title: "Lantern making", body: "copper and glass",
                                       curriculumID: "c1", created: testNow))
        return documents
    }

    static let queries = ["lantern", "river garden", "libr", "python kernel", "\"copper thunder\"", "note", "tag:alpha orbit",
                          "glacier OR saffron", "violin -harbour"]

    /// What must be identical between the slot path and the table path.
    struct Outcome: Equatable {
        var ids: [String]
        var relevance: [Double]
        var snippets: [String]
    }

    static func outcome(_ results: SearchResults) -> Outcome {
        Outcome(ids: results.hits.map(\.id), relevance: results.hits.map(\.relevance), snippets: results.hits.map(\.snippet.plainText))
    }

    static let variants: [(String, @Sendable (inout SearchRequest) -> Void)] = [
        ("default", { _ in }),
        ("partial", { $0.partial = true }),
        ("no decay", { $0.decayWeight = 0 }),
        ("strong decay", { $0.decayWeight = 3 }),
        ("expired too", { $0.includeExpired = true }),
        ("memories", { $0.kinds = [.memory] }),
        ("curricula and topics", { $0.kinds = [.curriculum, .topic] }),
        ("work context", { $0.context = "work" }),
        ("page 2", { $0.offset = 5; $0.limit = 5 }),
        ("later", { $0.now = testNow.addingTimeInterval(30 * day) }),
    ]

    @Test func theTablePathFindsExactlyWhatTheSlotPathFinds() throws {
        try makeIndex(dir, Self.corpus())
        var compared = 0
        for query in Self.queries {
            for (name, configure) in Self.variants {
                // A fresh reader's first search reads the expiry slot; its second builds and uses the table.
                let reader = try IndexReader.open(at: dir.stubPath)
                let first = try search(reader, query) { $0.limit = 30; configure(&$0) }
                let second = try search(reader, query) { $0.limit = 30; configure(&$0) }
                let third = try search(reader, query) { $0.limit = 30; configure(&$0) }
                #expect(Self.outcome(first) == Self.outcome(second), "\(query) [\(name)]")
                #expect(Self.outcome(second) == Self.outcome(third), "\(query) [\(name)]")
                if !first.hits.isEmpty { compared += 1 }
            }
        }
        #expect(compared > 50)
    }

    @Test func expiredItemsStayHiddenOnTheTablePath() throws {
        try makeIndex(dir, Self.corpus())
        let reader = try IndexReader.open(at: dir.stubPath)
        for _ in 0..<3 {
            let hits = try search(reader, "note") { $0.limit = 500 }.hits
            #expect(hits.count == 400 - 400 / 6 - (400 % 6 > 1 ? 1 : 0))
            #expect(hits.allSatisfy { ($0.expiry ?? .distantFuture) >= testNow })
            let all = try search(reader, "note") { $0.limit = 500; $0.includeExpired = true }.hits
            #expect(all.count == 400)
        }
    }

    @Test func aNewRevisionIsSeenOnBothPaths() throws {
        let writer = try makeIndex(dir, [
            memory("gone", "An expired thought about lanterns", expiry: testNow.addingTimeInterval(-day)),
            memory("kept", "A living thought about lanterns", expiry: testNow.addingTimeInterval(day)),
        ])
        let reader = try IndexReader.open(at: dir.stubPath)
        for _ in 0..<2 { #expect(try ids(reader, "lanterns") == ["kept"]) }

        // Reinforced: the expired memory gets a new expiry and is found again, on the first and later searches.
        try writer.upsert(memory("gone", "An expired thought about lanterns", expiry: testNow.addingTimeInterval(200 * day)))
        try writer.upsert(memory("new", "A new thought about lanterns", expiry: nil))
        try writer.commit(lastAppliedSeq: 2)
        try reader.reopen()
        for _ in 0..<3 { #expect(try Set(ids(reader, "lanterns")) == ["gone", "kept", "new"]) }

        // Faded: once its expiry passes it is hidden on both paths, and the sweep removes it.
        let later = testNow.addingTimeInterval(2 * day)
        for _ in 0..<3 { #expect(try Set(ids(reader, "lanterns") { $0.now = later }) == ["gone", "new"]) }
        #expect(try writer.sweepExpired(now: later).map(\.id) == ["kept"])
        try writer.commit(lastAppliedSeq: 3)
        try reader.reopen()
        for _ in 0..<3 {
            #expect(try Set(ids(reader, "lanterns") { $0.now = later; $0.includeExpired = true }) == ["gone", "new"])
        }
    }
}
