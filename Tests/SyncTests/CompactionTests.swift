import Foundation
import GRDB
import Testing
@testable import EngramCore

/// Compaction rewrites only this device's own lines and never removes a segment it could not read.
@Suite struct CompactionTests {
    @Test func aSegmentThatCannotBeReadIsLeftInPlaceWithAMessage() throws {
        let me = try Device()
        _ = try me.store.remember(MemoryDraft(content: "keep me"))
        let gone = try me.store.remember(MemoryDraft(content: "forget me")).memory
        try me.sync.export()
        // A segment that cannot be read (here a link to nothing; a bad disk block or wrong owner elsewhere).
        let unreadable = me.ownLog + "/ops-0.jsonl"
        #expect(symlink(me.ownLog + "/elsewhere", unreadable) == 0)
        _ = try me.store.forget(id: gone.id)
        try me.sync.export()
        var st = stat()
        #expect(lstat(unreadable, &st) == 0, "compaction removed a segment it could not read")
        #expect(try statusMessages(me).contains("ops-0.jsonl (this device's log) could not be read, so it was left in place"))
        let text = try String(contentsOfFile: me.ownLog + "/" + SyncFiles.segments(in: me.ownLog).last!.name, encoding: .utf8)
        #expect(text.contains("keep me") && !text.contains("forget me"))
    }

    @Test func compactionKeepsOnlyThisDevicesOwnLines() throws {
        let me = try Device()
        let gone = try me.store.remember(MemoryDraft(content: "forget me")).memory
        try me.sync.export()
        // Another device's line that found its way into this device's folder (a bad copy, a hand edit).
        let foreign = try BadInputTests.memory("f1", "not mine", counter: 1)
        let h = try #require(FileHandle(forWritingAtPath: me.ownLog + "/ops-1.jsonl"))
        try h.seekToEnd()
        try h.write(contentsOf: Data((foreign + "\n").utf8))
        try h.close()
        _ = try me.store.forget(id: gone.id)
        try me.sync.export()
        let text = try me.ownLogText()
        #expect(!text.contains("not mine"), "compaction kept another device's line in this device's log")
        for line in text.split(separator: "\n") {
            guard case .operation(let op) = SyncOperation.parse(line) else { Issue.record("not an operation: \(line)"); continue }
            #expect(op.dev == me.id)
        }
    }
}
