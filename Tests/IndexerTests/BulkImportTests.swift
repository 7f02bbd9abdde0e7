import EngramCore
import Foundation
import EngramApp
import Indexer
import Testing

/// The first large import into an empty index is built by the parallel rebuild path instead of the outbox
/// applier; the index must hold what applying the outbox would have written.
@Suite("Bulk first import")
struct BulkImportTests {
    let bulkDir = TemporaryDirectory()
    let stepDir = TemporaryDirectory()

    static let words = ["harbour", "lantern", "violin", "meadow", "copper", "glacier", "saffron", "orbit", "thunder", "kernel"]

    static func memories(_ range: Range<Int>, now: Date) -> [Memory] {
        range.map { i in
            Memory(id: "mem\(i)", content: "Item \(i) " + (0..<3).map { words[(i * ($0 + 3)) % words.count] }.joined(separator: " "),
                   type: [.note, .idea, .learning][i % 3], tags: ["t\(i % 7)"], created: now.addingTimeInterval(Double(i - range.upperBound)))
        }
    }

    func library(_ dir: TemporaryDirectory) throws -> Library {
        try Library(paths: EngramPaths(dataDirectory: dir.path + "/data", configDirectory: dir.path + "/config",
                                       runtimeDirectory: dir.path + "/run"))
    }

    @Test func aLargeFirstImportIsBuiltWholeAndMatchesApplyingTheOutbox() throws {
        let bulk = try library(bulkDir)
        let threshold = IndexRebuilder(stubPath: bulk.paths.indexPath).parallelThreshold
        let now = bulk.store.clock()
        let all = Self.memories(0..<(threshold + 300), now: now)
        try bulk.store.upsertMemories(all)
        guard case .applied(let report) = try bulk.applyPending() else { Issue.record("busy"); return }
        #expect(report.applied == all.count)
        #expect(report.upserted == all.count)
        #expect(report.linked > 0)
        #expect(try bulk.store.pendingOutboxCount(after: report.lastSeq) == 0)

        // The same memories applied through the outbox in steps below the threshold.
        let step = try library(stepDir)
        let half = threshold / 2
        for range in [0..<half, half..<(2 * half), (2 * half)..<all.count] {
            try step.store.upsertMemories(Array(all[range]))
            guard case .applied = try step.applyPending() else { Issue.record("busy"); return }
        }

        let a = try IndexReader.open(at: bulk.paths.indexPath), b = try IndexReader.open(at: step.paths.indexPath)
        #expect(try a.documentCount(kind: nil) == all.count)
        #expect(try a.documentCount(kind: .memory) == b.documentCount(kind: .memory))
        #expect(try a.lastAppliedSeq() == bulk.store.latestOutboxSeq())
        #expect(try Set(a.allIDs(kind: .memory)) == Set(b.allIDs(kind: .memory)))
        for m in all.prefix(50) {
            #expect(try a.documentTerms(kind: .memory, id: m.id) == b.documentTerms(kind: .memory, id: m.id))
        }
        #expect(try a.spellingWords() == b.spellingWords())
        for query in ["harbour", "violin harbour", "item"] {
            var request = SearchRequest(query: query)
            request.limit = 10_000
            let found = try Set(a.search(request).hits.map(\.id)), expected = try Set(b.search(request).hits.map(\.id))
            #expect(found == expected && !found.isEmpty, "\(query)")
        }

        // Later changes go through the outbox as usual.
        try bulk.store.upsertMemories(Self.memories(all.count..<(all.count + 3), now: now))
        guard case .applied(let more) = try bulk.applyPending() else { Issue.record("busy"); return }
        #expect(more.applied == 3)
        try a.reopen()
        #expect(try a.documentCount(kind: nil) == all.count + 3)
    }
}
