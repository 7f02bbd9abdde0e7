import EngramTestSupport
import Foundation
import GRDB
import Testing
@testable import EngramCore

/// A forgotten item stays forgotten: no local write brings it back, and its text survives nowhere (the log, kept
/// lines, the WAL).
@Suite struct ForgottenTests {
    static let peer = BadInputTests.peer
    static let now = BadInputTests.now

    @Test func importingAForgottenMemoryAgainIsRefusedAndWritesNothingToTheLog() throws {
        let me = try Device(clock: TestClock(Self.now))
        let m = try me.store.remember(MemoryDraft(content: "the secret plan")).memory
        try me.sync.export()
        _ = try me.store.forget(id: m.id)
        try me.sync.export()
        #expect(!(try me.ownLogText().contains("the secret plan")))

        // An import of a backup that still holds it.
        #expect { try me.store.upsertMemories([m]) } throws: { error in
            "\(error)".contains("was forgotten") && "\(error)".contains("nothing was saved")
        }
        // Any other local write that would record it.
        #expect(throws: EngramError.self) {
            try me.store.write("record") { db in try SyncLog.record(db, at: Self.now) { r in try r.set(.memory, m) } }
        }
        #expect(try me.store.memory(id: m.id) == nil)
        let pending = try me.store.read { db in try String.fetchAll(db, sql: "SELECT line FROM syncPending") }
        #expect(!pending.joined().contains("the secret plan"))
        try me.sync.export()
        #expect(!(try me.ownLogText().contains("the secret plan")))
    }

    /// A line of a newer Engram about `item`, spelled with spaces (as another JSON writer may).
    static func newerLine(_ item: String, _ text: String, at counter: Int) -> String {
        #"{"v": 2, "hlc": "\#(HybridClock(wall: HybridClock.milliseconds(now), counter: counter))", "dev": "\#(peer)", "op": "set", "e": "memory", "item": "\#(item)", "f": {"content": "\#(text)"}}"#
    }

    static func forget(_ item: String, counter: Int) throws -> String {
        try SyncOperation(hlc: HybridClock(wall: HybridClock.milliseconds(now), counter: counter), dev: peer, op: .forget,
                          e: .memory, item: item).line()
    }

    @Test func keptLinesAboutAForgottenItemAreDroppedBeforeAndAfterItsTombstone() throws {
        let me = try Device(clock: TestClock(Self.now))
        let log = me.sync.root + "/devices/\(Self.peer)/ops-1.jsonl"
        func parked() throws -> [String] { try me.store.read { db in try String.fetchAll(db, sql: "SELECT line FROM syncParked") } }
        try writeFile([Self.newerLine("k1", "kept before the forget", at: 1), try Self.forget("k1", counter: 2)]
            .joined(separator: "\n") + "\n", to: log)
        #expect(try me.sync.importPeers().forgotten == 1)
        #expect(try parked() == [])
        // A line about it that arrives after its tombstone is not kept either.
        let h = try #require(FileHandle(forWritingAtPath: log))
        try h.seekToEnd()
        try h.write(contentsOf: Data((Self.newerLine("k1", "kept after the forget", at: 3) + "\n").utf8))
        try h.close()
        #expect(try me.sync.importPeers().skipped == 1)
        #expect(try parked() == [])
        let messages = try me.store.syncStatus(messages: 50).messages.map(\.text).joined(separator: "\n")
        #expect(messages.contains("it is about an item forgotten here"))
    }

    @Test func aForgetAppliedFromAKeptLineEmptiesTheWAL() throws {
        let me = try Device(clock: TestClock(Self.now))
        let log = me.sync.root + "/devices/\(Self.peer)/ops-1.jsonl"
        try writeFile(try BadInputTests.memory("w1", "zebra wal secret", counter: 1) + "\n", to: log)
        #expect(try me.sync.importPeers().applied == 1)
        // A forget kept by an older Engram, which this one now understands.
        try me.store.write("park") { db in
            try db.execute(sql: "INSERT INTO syncParked(device, file, offset, line, reason) VALUES (?, 'ops-1.jsonl', 999, ?, 'newer')",
                           arguments: [Self.peer, try Self.forget("w1", counter: 2)])
        }
        let report = try me.sync.importPeers()
        #expect(report.applied == 1 && report.forgotten == 1)
        #expect(try me.store.memory(id: "w1") == nil)
        let path = me.dir.path + "/data/engram.sqlite"
        for file in [path, path + "-wal"] {
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: file))) ?? Data()
            #expect(bytes.range(of: Data("zebra wal secret".utf8)) == nil, "\(file) still holds the forgotten text")
        }
    }
}
