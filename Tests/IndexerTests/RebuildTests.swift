import Foundation
import EngramApp
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

    @Test func parallelRebuildWritesWhatTheSequentialOneWrites() throws {
        let words = ["walrus", "narwhal", "orca", "beluga", "manatee", "dugong"]
        var docs = (0..<300).map { i in
            memory("m\(i)", "\(words[i % 6]) note \(i)\nabout \(words[(i + 1) % 6]) and \(words[(i + 2) % 6]) swimming",
                   tags: [i % 2 == 0 ? "Even" : "odd"])
        }
        docs.append(memory("m7", "replaced: a lonely sirenian"))  // a repeat: the last one wins
        let sequentialDir = TemporaryDirectory()
        let sequential = IndexRebuilder(stubPath: sequentialDir.stubPath)
        sequential.threads = 1
        try sequential.rebuild(from: docs, lastAppliedSeq: 9)
        let parallel = IndexRebuilder(stubPath: dir.stubPath)
        parallel.threads = 3
        parallel.parallelThreshold = 1
        var reports: [(Int, Int)] = []
        try parallel.rebuild(from: docs, lastAppliedSeq: 9) { reports.append(($0, $1)) }
        #expect(reports.last.map { [$0.0, $0.1] } == [301, 301])

        let a = try IndexReader.open(at: sequentialDir.stubPath), b = try IndexReader.open(at: dir.stubPath)
        #expect(try b.documentCount(kind: .memory) == 300)
        #expect(try b.lastAppliedSeq() == 9)
        for query in ["walrus", "narwhal swimming", "\"about orca\"", "tag:even beluga", "sirenian", "title:dugong", "manat"] {
            let all: (inout SearchRequest) -> Void = { $0.limit = 1000 }
            #expect(try Set(ids(b, query, configure: all)) == Set(ids(a, query, configure: all)), "\(query)")
        }
        #expect(try ids(b, "sirenian") == ["m7"])
        #expect(try b.spellingWords() == a.spellingWords())
        #expect(try b.termsAndSpelling(kind: .memory, id: "m42") == a.termsAndSpelling(kind: .memory, id: "m42"))
        #expect(IndexLayout.generations(forStub: dir.stubPath).count == 1)  // no shard left behind
        let generation = try #require(try IndexLayout.currentGeneration(forStub: dir.stubPath))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: (generation as NSString).deletingLastPathComponent)
        #expect(leftovers.allSatisfy { !$0.contains("shard") })
    }

    @Test func failedParallelRebuildLeavesTheIndexInUseUntouched() throws {
        try makeIndex(dir, before, seq: 5).close()
        let rebuilder = IndexRebuilder(stubPath: dir.stubPath)
        rebuilder.threads = 2
        rebuilder.parallelThreshold = 1
        #expect(throws: IndexError.self) {
            try rebuilder.rebuild(from: Array(after.prefix(10)) + [memory("", "a document without an id")], lastAppliedSeq: 42)
        }
        #expect(try IndexReader.open(at: dir.stubPath).lastAppliedSeq() == 5)
        #expect(IndexLayout.generations(forStub: dir.stubPath).count == 1)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: IndexLayout.generationsDirectory(forStub: dir.stubPath))
        #expect(leftovers.allSatisfy { !$0.contains("shard") })
    }
}
