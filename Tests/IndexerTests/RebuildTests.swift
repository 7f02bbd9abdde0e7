import Foundation
import Indexer
import Testing

@Suite("Rebuild")
struct RebuildTests {
    let dir = TemporaryDirectory()

    let before = [memory("old1", "Walrus facts from the old index"), memory("old2", "Another walrus")]
    let after = (0..<600).map { memory("new\($0)", "Narwhal fact number \($0)") }

    @Test func swapKeepsOldReadersWorkingAndNewReadersSeeTheNewGeneration() throws {
        try makeIndex(dir, before, seq: 5).close()
        let oldReader = try IndexReader.open(at: dir.stubPath)
        #expect(try ids(oldReader, "walrus").count == 2)
        let oldGeneration = try #require(try IndexLayout.currentGeneration(forStub: dir.stubPath))

        var reports: [(Int, Int)] = []
        try IndexRebuilder(stubPath: dir.stubPath).rebuild(from: after, lastAppliedSeq: 42) { reports.append(($0, $1)) }

        #expect(reports.map(\.0) == [256, 512, 600])
        #expect(reports.allSatisfy { $0.1 == 600 })
        let newGeneration = try #require(try IndexLayout.currentGeneration(forStub: dir.stubPath))
        #expect(newGeneration != oldGeneration)
        #expect(!FileManager.default.fileExists(atPath: oldGeneration))  // the old generation is gone from disk
        #expect(IndexLayout.generations(forStub: dir.stubPath) == [(newGeneration as NSString).lastPathComponent])

        // A reader opened before the swap still answers from the old generation.
        #expect(try Set(ids(oldReader, "walrus")) == ["old1", "old2"])
        #expect(try oldReader.lastAppliedSeq() == 5)

        let newReader = try IndexReader.open(at: dir.stubPath)
        #expect(try ids(newReader, "walrus").isEmpty)
        #expect(try newReader.documentCount(kind: .memory) == 600)
        #expect(try newReader.lastAppliedSeq() == 42)
        #expect(try ids(newReader, "narwhal 599 ").first == "new599")

        // Reopening follows the swapped stub.
        try oldReader.reopen()
        #expect(try oldReader.lastAppliedSeq() == 42)
        #expect(try ids(oldReader, "walrus").isEmpty)

        // Writers opened afterwards write to the new generation.
        let writer = try IndexWriter.open(at: dir.stubPath, create: false)
        #expect(try writer.lastAppliedSeq() == 42)
        try writer.upsert(memory("late", "A late walrus"))
        try writer.commit(lastAppliedSeq: 43)
        try newReader.reopen()
        #expect(try ids(newReader, "walrus") == ["late"])
    }

    @Test func rebuildRefusesWhileAWriterHoldsTheIndex() throws {
        let writer = try makeIndex(dir, before, seq: 5)
        let generation = try IndexLayout.currentGeneration(forStub: dir.stubPath)
        #expect(throws: IndexError.self) {
            try IndexRebuilder(stubPath: dir.stubPath).rebuild(from: after, lastAppliedSeq: 42)
        }
        #expect(try IndexLayout.currentGeneration(forStub: dir.stubPath) == generation)
        #expect(IndexLayout.generations(forStub: dir.stubPath).count == 1)  // no half-built generation left
        writer.close()
    }

    @Test func failedRebuildLeavesTheIndexInUseUntouched() throws {
        try makeIndex(dir, before, seq: 5).close()
        let broken = after.prefix(10) + [memory("", "a document without an id")]
        #expect(throws: IndexError.self) {
            try IndexRebuilder(stubPath: dir.stubPath).rebuild(from: Array(broken), lastAppliedSeq: 42)
        }
        let reader = try IndexReader.open(at: dir.stubPath)
        #expect(try reader.lastAppliedSeq() == 5)
        #expect(try Set(ids(reader, "walrus")) == ["old1", "old2"])
        #expect(IndexLayout.generations(forStub: dir.stubPath).count == 1)
    }

    @Test func rebuildCreatesAMissingIndexWithPrivatePermissions() throws {
        let stub = IndexLayout.stubPath(inDirectory: (dir.path as NSString).appendingPathComponent("data/engram"))
        try IndexRebuilder(stubPath: stub).rebuild(from: before, lastAppliedSeq: 7)
        let reader = try IndexReader.open(at: stub)
        #expect(try reader.lastAppliedSeq() == 7)
        #expect(try reader.documentCount(kind: nil) == 2)
        let stubMode = try FileManager.default.attributesOfItem(atPath: stub)[.posixPermissions] as? Int
        let generationsMode = try FileManager.default.attributesOfItem(
            atPath: IndexLayout.generationsDirectory(forStub: stub))[.posixPermissions] as? Int
        #expect(stubMode == 0o600)
        #expect(generationsMode == 0o700)
        #expect(try String(contentsOfFile: stub, encoding: .utf8) == "auto index.d/1\n")
    }

    @Test func writerCreatesTheLayoutOnFirstOpen() throws {
        let writer = try IndexWriter.open(at: dir.stubPath)
        #expect(try writer.lastAppliedSeq() == 0)
        #expect(try IndexLayout.currentGeneration(forStub: dir.stubPath) == IndexLayout.generationsDirectory(forStub: dir.stubPath) + "/1")
        try writer.upsert(memory("m1", "first words"))
        try writer.commit(lastAppliedSeq: 1)
        #expect(try ids(IndexReader.open(at: dir.stubPath), "first") == ["m1"])
        // Xapian's own tools follow the stub too.
        #expect(try run("/usr/bin/quest", ["-d", dir.stubPath, "first"]).contains("id=m1"))
    }
}
