import EngramTestSupport
import Foundation
import GRDB
import Testing
@testable import EngramCore

/// A peer's operations get the checks local input gets, and numbers, dates and lines out of range are refused
/// with a message, never trapped on or stored.
@Suite struct PeerLimitsTests {
    static let peer = BadInputTests.peer
    static let now = BadInputTests.now
    static let wall = HybridClock.milliseconds(now)

    static func op(_ counter: Int, _ kind: SyncOperation.Kind, _ e: SyncEntity, _ item: String, f: [String: SyncValue]? = nil,
                   tag: String? = nil, add: Bool? = nil, other: String? = nil, name: String? = nil, total: Double? = nil) throws -> String {
        try SyncOperation(hlc: HybridClock(wall: wall, counter: counter), dev: peer, op: kind, e: e, item: item, f: f, tag: tag,
                          add: add, other: other, counter: name, total: total).line()
    }

    static func session(_ id: String, counter: Int, done: Int64 = 0, total: Int64 = 3) throws -> String {
        let date = SyncValue.text("2026-11-22 10:00:00.000")
        return try op(counter, .set, .session, id, f: [
            "kind": .text("learning"), "title": .text("Study"), "curriculumID": .null, "topicID": .null, "state": .text("paused"),
            "started": date, "resumed": .null, "ended": .null, "progressDone": .integer(done), "progressTotal": .integer(total),
            "updated": date])
    }

    /// Imports `lines` from the peer; returns the report and the messages.
    static func importLines(_ lines: [String], into me: Device) throws -> (SyncImportReport, String) {
        try writeFile(lines.joined(separator: "\n") + "\n", to: me.sync.root + "/devices/\(peer)/ops-1.jsonl")
        let report = try me.sync.importPeers()
        return (report, try statusMessages(me))
    }

    @Test func hugeCounterTotalsAreRefusedAndAStoredOneNeverTraps() throws {
        let me = try Device(clock: TestClock(Self.now))
        let (report, messages) = try Self.importLines([
            try BadInputTests.memory("c1", "counted", counter: 1),
            try Self.op(2, .count, .memory, "c1", name: "uses", total: 1e19),
            try Self.session("s1", counter: 3),
            try Self.op(4, .count, .session, "s1", name: "seconds", total: 1e300),
        ], into: me)
        #expect(report.applied == 2 && report.skipped == 2)
        #expect(messages.contains("its uses total 1e+19 is out of range"))
        #expect(try me.store.requireMemory(id: "c1").useCount == 0)
        // A total stored before totals were bounded: the row saturates instead of trapping on every start.
        try me.store.write("an old total") { db in
            try db.execute(sql: "INSERT INTO syncCounter(entity, item, counter, device, total) VALUES ('memory', 'c1', 'uses', ?, 1e19), ('session', 's1', 'seconds', ?, 1e300)",
                           arguments: [Self.peer, Self.peer])
            try SyncProjection.project(db, .init(items: [.init(entity: .memory, item: "c1"), .init(entity: .session, item: "s1")]), at: Self.now, linkNew: false)
        }
        #expect(try me.store.requireMemory(id: "c1").useCount > 1_000_000_000)
        #expect(try me.store.session(id: "s1")!.accumulatedSeconds.isFinite)
    }

    @Test func sessionCountsAndPositionsOutOfRangeAreRefused() throws {
        let me = try Device(clock: TestClock(Self.now))
        let (report, messages) = try Self.importLines([
            try Self.session("s1", counter: 1, done: Int64.max, total: 3),
            try Self.session("s2", counter: 2, done: 1, total: -4),
            try Self.op(3, .set, .topic, "t1", f: ["position": .integer(Int64.min), "updated": .text("2026-11-22 10:00:00.000")]),
            try Self.session("s3", counter: 4, done: 2, total: 3),
        ], into: me)
        #expect(report.applied == 1 && report.skipped == 3)
        #expect(messages.contains("its value for session field 'progressDone' does not fit that field"))
        #expect(messages.contains("its value for topic field 'position' does not fit that field"))
        #expect(try me.store.session(id: "s3")?.progressDone == 2)
        #expect(try me.store.session(id: "s1") == nil)
    }

    @Test func everyDateIsReadAsTheStoreReadsItAndALinksToo() throws {
        let me = try Device(clock: TestClock(Self.now))
        func dated(_ id: String, _ text: String, _ counter: Int) throws -> String {
            try BadInputTests.memory(id, "dated", counter: counter).replacingOccurrences(of: #""created":"2026-11-22 10:00:00.000""#, with: #""created":"\#(text)""#)
        }
        let (report, messages) = try Self.importLines([
            try dated("d1", "2026-02-31 10:00:00.000", 1),   // no such day
            try dated("d2", "2026-11-22T10:00:00.000", 2),   // ISO, not the store's text
            try dated("d3", "2026-11-22 25:00:00.000", 3),   // no such hour
            try dated("d4", "20261-1-22 10:00:00.000", 4),
            try dated("d5", "2026-11-21 09:30:00.250", 5),   // fine
            try BadInputTests.memory("d6", "other end", counter: 6),
            try Self.op(7, .link, .memory, "d5", f: ["created": .text("yesterday")], add: true, other: "d6"),
            try Self.op(8, .link, .memory, "d5", f: ["created": .integer(3)], add: true, other: "d6"),
        ], into: me)
        #expect(report.applied == 2 && report.skipped == 6)
        #expect(messages.contains("its value for memory field 'created' does not fit that field"))
        #expect(messages.contains("its link field 'created' is not a creation date"))
        #expect(try me.store.memoryIDs().sorted() == ["d5", "d6"])
        #expect(try me.store.requireMemory(id: "d5").created == ISODate.parse("2026-11-21T09:30:00.250Z"))
        #expect(try me.store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM link") } == 0)
    }

    /// A date value more than a day after its own operation's clock is refused: a `latest` date that far ahead
    /// would win for good (a memory reinforced in 2999 never fades). Within the day it is applied.
    @Test func datesFarAheadOfTheirOperationAreRefused() throws {
        let me = try Device(clock: TestClock(Self.now))
        func dated(_ id: String, _ field: String, _ text: String, _ counter: Int) throws -> String {
            try BadInputTests.memory(id, "dated", counter: counter)
                .replacingOccurrences(of: #""\#(field)":"2026-11-22 10:00:00.000""#, with: #""\#(field)":"\#(text)""#)
        }
        let (report, messages) = try Self.importLines([
            try dated("r1", "lastReinforced", "2999-01-01 00:00:00.000", 1),
            try dated("r2", "updated", "2026-11-24 10:00:00.001", 2),     // two days ahead
            try dated("r3", "created", "2026-11-22 21:00:00.000", 3),     // eleven hours ahead: within the day
            try BadInputTests.memory("r4", "2999-01-01", counter: 4),              // a text that looks like a date is no date
            try Self.op(5, .link, .memory, "r3", f: ["created": .text("2999-01-01 00:00:00.000")], add: true, other: "r4"),
        ], into: me)
        #expect(report.applied == 2 && report.skipped == 3, "\(messages)")
        #expect(messages.contains("its memory lastReinforced 2999-01-01 00:00:00.000 is more than a day after the operation itself"))
        #expect(messages.contains("its memory updated 2026-11-24 10:00:00.001 is more than a day after"))
        #expect(try me.store.memoryIDs().sorted() == ["r3", "r4"])
        #expect(try me.store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM link") } == 0)
        #expect(try me.store.requireMemory(id: "r4").content == "2999-01-01")
    }

    /// A kept line that, read again, can no longer be applied (found wrong once this Engram understands it) is
    /// dropped with a message, so it never counts against the device's kept lines.
    @Test func aKeptLineFoundWrongIsDroppedWithAMessage() throws {
        let me = try Device(clock: TestClock(Self.now))
        let bad = try BadInputTests.memory("k1", "kept", counter: 1).replacingOccurrences(of: #""type":"note""#, with: #""type":"poem""#)
        try me.store.write("keep a line") { db in
            try db.execute(sql: "INSERT INTO syncParked(device, file, offset, line, reason) VALUES (?, 'ops-1.jsonl', 0, ?, 'test')",
                           arguments: [Self.peer, bad])
        }
        #expect(try me.store.syncStatus().parked == 1)
        _ = try me.sync.importPeers()
        #expect(try me.store.syncStatus().parked == 0)
        #expect(try statusMessages(me).contains("can no longer be applied: its value for memory field 'type' does not fit that field; dropped"))
        #expect(try me.store.memory(id: "k1") == nil)
    }

    @Test func idsTextAndTagsGetTheChecksLocalInputGets() throws {
        let me = try Device(clock: TestClock(Self.now))
        let big = String(repeating: "x", count: Store.maxContentBytes + 1)
        let (report, messages) = try Self.importLines([
            try BadInputTests.memory("../escape", "a path for an id", counter: 1),
            try BadInputTests.memory("n1", "nul\u{0}byte", counter: 2),
            try BadInputTests.memory("n2", big, counter: 3),
            try Self.op(4, .tag, .memory, "n3", tag: "a\u{0}b", add: true),
            try BadInputTests.memory("n4", "fine", counter: 5),
            try Self.op(6, .link, .memory, "n4", add: true, other: "bad id"),
            try Self.op(7, .set, .topic, "t1", f: ["curriculumID": .text("c/../1")]),
        ], into: me)
        #expect(report.applied == 1 && report.skipped == 6)
        #expect(messages.contains("its item id '../escape' is not an id"))
        #expect(messages.contains("its value for memory field 'content' does not fit that field"))
        #expect(messages.contains("is not a tag as Engram writes them"))
        #expect(messages.contains("its linked id 'bad id' is not an id"))
        #expect(messages.contains("its value for topic field 'curriculumID' does not fit that field"))
        #expect(try me.store.memoryIDs() == ["n4"])
    }

    /// A peer cannot fill the store with lines it cannot apply: past `keptLimit` kept lines, the rest of its log (this
    /// segment and the next) waits where it is, in order, with a message; once the kept lines apply, reading goes on.
    @Test func keptLinesAreCappedPerDeviceAndTheRestWaitsInOrder() throws {
        let me = try Device(clock: TestClock(Self.now))
        var sync = SyncFolder(store: me.store, root: me.sync.root)
        sync.keptLimit = 3
        let ahead = HybridClock.milliseconds(Self.now) + 2 * HybridClock.maxSkewMilliseconds
        let early = try (0..<5).map { try BadInputTests.memory("e\($0)", "dated ahead \($0)", wall: ahead, counter: 1 + $0) }
        let after = try BadInputTests.memory("a1", "after the held ones", counter: 10)
        try writeFile((early + [after]).joined(separator: "\n") + "\n", to: me.sync.root + "/devices/\(Self.peer)/ops-1.jsonl")
        try writeFile(try BadInputTests.memory("a2", "in the next segment", counter: 11) + "\n",
                      to: me.sync.root + "/devices/\(Self.peer)/ops-2.jsonl")
        let first = try sync.importPeers()
        #expect(first.parked == 3 && first.applied == 0, "\(first)")
        #expect(try me.store.syncStatus().parked == 3)
        #expect(try me.store.memoryIDs().isEmpty, "nothing after the stop is applied out of order")
        #expect(try statusMessages(me).contains("has 3 changes waiting"))
        #expect(try sync.importPeers().parked == 0, "still full: read no further")
        // Their time comes: the kept lines apply, and reading goes on from where it stopped, nothing lost.
        me.clock.advance(seconds: 2 * 86_400)
        _ = try sync.importPeers()
        _ = try sync.importPeers()
        #expect(try me.store.memoryIDs().sorted() == ["a1", "a2", "e0", "e1", "e2", "e3", "e4"])
        #expect(try me.store.syncStatus().parked == 0)
    }

    /// A device's segments are read in their number's order: ops-9 before ops-10 (by name, "ops-10" sorts first). With
    /// no room for kept lines, a line to keep at the start of ops-9 stops the device there, so ops-10 waits too.
    @Test func segmentsAreReadInNumberOrder() throws {
        let me = try Device(clock: TestClock(Self.now))
        var sync = SyncFolder(store: me.store, root: me.sync.root)
        sync.keptLimit = 0
        let dir = me.sync.root + "/devices/\(Self.peer)"
        let newer = #"{"v":2,"op":"teleport","hlc":"x","dev":"pppppppppppppppp"}"#
        try writeFile(newer + "\n" + (try BadInputTests.memory("s9", "in segment nine", counter: 1)) + "\n", to: dir + "/ops-9.jsonl")
        try writeFile(try BadInputTests.memory("s10", "in segment ten", counter: 2) + "\n", to: dir + "/ops-10.jsonl")
        let report = try sync.importPeers()
        #expect(report.applied == 0, "\(report)")
        #expect(try me.store.memoryIDs().isEmpty, "ops-10 was read before ops-9")
    }

    @Test func aLineLongerThanTheReadLimitIsSkippedAndReadingGoesOn() throws {
        let me = try Device(clock: TestClock(Self.now))
        var sync = SyncFolder(store: me.store, root: me.sync.root)
        sync.readLimit = 64 * 1024
        let log = me.sync.root + "/devices/\(Self.peer)/ops-1.jsonl"
        try writeFile([try BadInputTests.memory("l1", String(repeating: "y", count: 100 * 1024), counter: 1),
                       try BadInputTests.memory("l2", "after the long one", counter: 2)].joined(separator: "\n") + "\n", to: log)
        let report = try sync.importPeers()
        #expect(report.applied == 1 && report.skipped == 1)
        #expect(try me.store.memoryIDs() == ["l2"])
        #expect(try statusMessages(me).contains("longer than any operation"))
        #expect(try sync.importPeers().applied == 0)  // read once
        // More lines than one read holds: all read, in reads of at most the limit.
        let many = try (0..<600).map { try BadInputTests.memory("r\($0)", String(repeating: "z", count: 200), counter: 10 + $0) }
        let h = try #require(FileHandle(forWritingAtPath: log))
        try h.seekToEnd()
        try h.write(contentsOf: Data((many.joined(separator: "\n") + "\n").utf8))
        try h.close()
        #expect(try sync.importPeers().applied == 600)
        #expect(try me.store.memoryCount() == 601)
    }
}
