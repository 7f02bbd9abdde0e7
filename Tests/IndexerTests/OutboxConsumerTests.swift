import EngramCore
import Foundation
import EngramApp
import Indexer
import Testing

/// Data flows one way: the document applier fills the index and never writes the store; the automatic links are a
/// consumer after the index, with their own mark, and the outbox is pruned only up to the lowest mark.
@Suite("Outbox consumers")
struct OutboxConsumerTests {
    let dir = TemporaryDirectory()

    func library() throws -> Library {
        try Library(paths: EngramPaths(dataDirectory: dir.path + "/data", configDirectory: dir.path + "/config",
                                       runtimeDirectory: dir.path + "/run"))
    }

    @Test func theIndexStepLeavesTheStoreAloneAndTheLinkerFollowsIt() throws {
        let lib = try library()
        for i in 1...4 {
            _ = try lib.store.remember(MemoryDraft(content: "Sourdough starter needs feeding twice a day with rye flour \(i)", type: .note))
        }
        try IndexLayout.makePrivateDirectory(lib.paths.dataDirectory)
        let writer = try IndexWriter.open(at: lib.paths.indexPath, create: true)
        defer { writer.close() }
        let before = try lib.store.latestOutboxSeq()

        let report = try lib.indexOutbox(with: writer)
        #expect(report.applied == 4 && report.lastSeq == before)
        #expect(try writer.documentCount(kind: .memory) == 4)
        // The index step wrote nothing to the store: no links, the links' mark where it was, the outbox whole.
        #expect(try lib.store.allLinks().isEmpty)
        #expect(try lib.store.autoLinkedSeq() == 0)
        #expect(try lib.store.pendingOutboxCount(after: 0) == 4)

        let linked = try lib.followIndex(writer)
        #expect(linked > 0, "near-identical notes were not linked")
        #expect((1...linked).contains(try lib.store.allLinks().count), "links found but not saved")
        #expect(try lib.store.autoLinkedSeq() == before)
        #expect(try lib.store.pendingOutboxCount(after: 0) == 0, "the outbox was not pruned once every consumer passed it")
        // Following again changes nothing: the mark is past every change.
        #expect(try lib.followIndex(writer) == 0)
    }
}
