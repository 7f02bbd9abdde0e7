import EngramCore
import Foundation
import EngramApp
import Indexer
import Testing

/// Forgetting leaves no bytes behind: Xapian keeps a deleted document's text in free blocks of its tables until a
/// compaction, so deletions record a due compaction and `IndexCompactor` copies the index into a fresh generation.
@Suite("Compaction after forget")
struct CompactionTests {
    let dir = TemporaryDirectory()
    let secret = "zqsecretmarker"

    /// The files of the current generation whose bytes hold `marker` anywhere (live or free blocks).
    func filesHolding(_ marker: String) throws -> [String] {
        let generation = try #require(try IndexLayout.currentGeneration(forStub: dir.stubPath))
        let needle = Data(marker.utf8)
        return try FileManager.default.contentsOfDirectory(atPath: generation).filter { name in
            guard let data = FileManager.default.contents(atPath: generation + "/" + name) else { return false }
            return data.range(of: needle) != nil
        }
    }

    @Test func deletingLeavesBytesUntilTheCompactionRemovesThem() throws {
        let docs = (0..<50).map { memory("m\($0)", "Ordinary memory number \($0) about walruses") }
            + [memory("gone", "The \(secret) door code is \(secret)plinth")]
        let writer = try makeIndex(dir, docs, seq: 1)
        #expect(try writer.compactionDue() == nil)
        try writer.delete(kind: .memory, id: "gone")
        try writer.markCompactionDue(now: Date(timeIntervalSince1970: 1_000))
        try writer.markCompactionDue(now: Date(timeIntervalSince1970: 2_000))  // the first deletion's time is kept
        try writer.commit(lastAppliedSeq: 2)
        #expect(try writer.compactionDue() == Date(timeIntervalSince1970: 1_000))
        #expect(try !filesHolding(secret).isEmpty)  // what the compaction is for: Xapian keeps the bytes
        writer.close()

        let old = try #require(try IndexLayout.currentGeneration(forStub: dir.stubPath))
        try IndexCompactor.compact(stubPath: dir.stubPath)
        #expect(try filesHolding(secret) == [])
        #expect(try IndexLayout.currentGeneration(forStub: dir.stubPath) != old)
        #expect(!FileManager.default.fileExists(atPath: old))
        let reader = try IndexReader.open(at: dir.stubPath)
        #expect(try reader.documentCount(kind: .memory) == 50)
        #expect(try reader.lastAppliedSeq() == 2)
        #expect(try ids(reader, "walruses 49").first == "m49")
        let again = try IndexWriter.open(at: dir.stubPath, create: false)
        #expect(try again.compactionDue() == nil)  // done: the copy is not due
        again.close()
    }

    /// Closing a writer and compacting (or reopening) at once, while another thread starts processes: a child that
    /// is being started holds a copy of the lock's descriptor until it execs, and Xapian's lock lives while any
    /// copy is open. The reopen waits for it instead of saying "already locked" (once in a while in the daemon,
    /// after every compaction that follows a forget, and in a full parallel `swift test`).
    @Test func aLockJustLetGoOfComesBackWhileAnotherThreadStartsProcesses() throws {
        try makeIndex(dir, [memory("a", "alpha")], seq: 1).close()
        let done = DispatchSemaphore(value: 0), stopped = DispatchSemaphore(value: 0)
        let spawner = Thread {
            let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
            while done.wait(timeout: .now()) == .timedOut {
                var pid: pid_t = 0
                if posix_spawn(&pid, "/bin/true", nil, nil, argv, environ) == 0 { waitpid(pid, nil, 0) }
            }
            stopped.signal()
        }
        spawner.start()
        defer { done.signal(); stopped.wait() }
        var failures: [String] = []
        for round in 0..<300 {
            do {
                if round % 10 == 0 { try IndexCompactor.compact(stubPath: dir.stubPath) }
                try IndexWriter.open(at: dir.stubPath, create: false).close()
            } catch {
                failures.append("round \(round): \(error)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of 300 reopens failed, first: \(failures.first ?? "")")
    }

    @Test func compactionWaitsForTheWriterToBeFree() throws {
        let writer = try makeIndex(dir, [memory("a", "alpha")], seq: 1)
        #expect(throws: IndexError.self) { try IndexCompactor.compact(stubPath: dir.stubPath) }
        #expect(IndexLayout.generations(forStub: dir.stubPath).count == 1)  // nothing half made
        writer.close()
    }
}

@Suite("Compaction after forget, through the library")
struct LibraryCompactionTests {
    let dir = TemporaryDirectory()

    @Test func aCommandThatAppliesAForgetCompactsBeforeItReturns() throws {
        let library = try Library(paths: EngramPaths(dataDirectory: dir.path + "/data", configDirectory: dir.path + "/config",
                                                     runtimeDirectory: dir.path + "/run"))
        let now = library.store.clock()
        try library.store.upsertMemories((0..<20).map { Memory(id: "m\($0)", content: "Plain memory \($0)", type: .note, created: now) }
            + [Memory(id: "gone", content: "The zqforgottenword stays nowhere", type: .note, created: now)])
        _ = try library.applyPending()
        _ = try library.store.forget(id: "gone")
        guard case .applied(let report) = try library.applyPending() else { Issue.record("busy"); return }
        #expect(report.deleted == 1)
        let generation = try #require(try IndexLayout.currentGeneration(forStub: library.paths.indexPath))
        for name in try FileManager.default.contentsOfDirectory(atPath: generation) {
            let data = try #require(FileManager.default.contents(atPath: generation + "/" + name))
            #expect(data.range(of: Data("zqforgottenword".utf8)) == nil, "\(name) still holds the forgotten memory's bytes")
        }
        let writer = try IndexWriter.open(at: library.paths.indexPath, create: false)
        #expect(try writer.compactionDue() == nil)
        #expect(try writer.documentCount(kind: .memory) == 20)
        writer.close()
    }
}
