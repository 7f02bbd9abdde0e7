import EngramTestSupport
import Foundation
import GRDB
import Testing
@testable import EngramCore

/// What a peer's folder may hold besides good operations: each gets a message, nothing is applied twice, nothing
/// is lost, and reading goes on.
@Suite struct BadInputTests {
    static let peer = "pppppppppppppppp"
    static let now = ISODate.parse("2026-11-22T10:00:00Z")!

    static func memory(_ id: String, _ content: String, wall: Int64 = HybridClock.milliseconds(now), counter: Int) throws -> String {
        let date = SyncValue.text("2026-11-22 10:00:00.000")
        return try SyncOperation(hlc: HybridClock(wall: wall, counter: counter), dev: peer, op: .set, e: .memory, item: id, f: [
            "content": .text(content), "type": .text("note"), "context": .null, "created": date, "updated": date,
            "lastReinforced": date, "pinned": .integer(0), "source": .null]).line()
    }

    static func tag(_ id: String, _ tag: String, counter: Int, dev: String = peer) throws -> String {
        try SyncOperation(hlc: HybridClock(wall: HybridClock.milliseconds(now), counter: counter), dev: dev, op: .tag, e: .memory,
                          item: id, tag: tag, add: true).line()
    }

    func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    func append(_ text: String, to path: String) throws {
        let h = try #require(FileHandle(forWritingAtPath: path))
        try h.seekToEnd()
        try h.write(contentsOf: Data(text.utf8))
        try h.close()
    }

    @Test func badLinesAreReportedSkippedOrKeptAndReadingGoesOn() throws {
        let me = try Device(clock: TestClock(Self.now))
        let log = me.sync.root + "/devices/\(Self.peer)/ops-1.jsonl"
        let future = HybridClock.milliseconds(Self.now) + 30 * 86_400_000
        let late = try Self.tag("p1", "late", counter: 9)
        try write([
            try Self.memory("p1", "first", counter: 1),
            #"{"v":1,"hlc":"000001763805600000.0000"#,  // cut in the middle, then a newline: corrupt
            "not json at all",
            #"{"v":2,"op":"teleport","hlc":"x","dev":"pppppppppppppppp"}"#,  // a newer schema
            try Self.memory("p3", "from a later kind", counter: 3).replacingOccurrences(of: #""op":"set""#, with: #""op":"rename""#),
            try Self.memory("p2", "from the future", wall: future, counter: 4),
            try Self.tag("p1", "forged", counter: 5, dev: "qqqqqqqqqqqqqqqq"),  // another device's operation in this folder
            try Self.tag("p1", "t", counter: 6),
        ].joined(separator: "\n") + "\n" + late.prefix(20), to: log)

        let first = try me.sync.importPeers()
        #expect(first.applied == 2)
        #expect(first.parked == 3)  // the newer schema, the later kind, and the one from the future (held)
        #expect(first.skipped == 3)
        #expect(try me.store.requireMemory(id: "p1").tags == ["t"])
        #expect(try me.store.memory(id: "p2") == nil)
        // The future reading moved this device's clock at most a day ahead.
        let clock = try me.store.read { db in try SyncLog.loadClock(db) }
        #expect(clock.wall <= HybridClock.milliseconds(Self.now) + HybridClock.maxSkewMilliseconds)
        let status = try me.store.syncStatus(messages: 50)
        let messages = status.messages.map(\.text).joined(separator: "\n")
        for expected in ["not an operation", "newer Engram", "in the future", "an operation of device qqqqqqqqqqqqqqqq", "new device \(Self.peer)"] {
            #expect(messages.contains(expected), "no message about \(expected): \(messages)")
        }
        #expect(status.parked == 3)
        #expect(status.peers.map(\.received) == [2])

        // Again: nothing new, nothing applied twice, no message repeated.
        let second = try me.sync.importPeers()
        #expect(second.applied == 0)
        #expect(try me.store.syncStatus(messages: 50).messages.count == status.messages.count)
        #expect(try me.store.syncStatus().peers.map(\.received) == [2])

        // The incomplete last line, once complete, is read.
        try append(String(late.dropFirst(20)) + "\n", to: log)
        let third = try me.sync.importPeers()
        #expect(third.applied == 1)
        #expect(Set(try me.store.requireMemory(id: "p1").tags) == ["t", "late"])

        // Once its time has come (within a day of it), the held operation applies, once.
        me.clock.advance(seconds: 29.5 * 86_400)
        #expect(try me.sync.importPeers().applied == 1)
        #expect(try me.store.requireMemory(id: "p2").content == "from the future")
        #expect(try me.store.syncStatus().parked == 2)
        #expect(try me.sync.importPeers().applied == 0)
    }

    @Test func valuesThatDoNotFitTheirFieldAreRefusedAndTheRestApplies() throws {
        let me = try Device(clock: TestClock(Self.now))
        let log = me.sync.root + "/devices/\(Self.peer)/ops-1.jsonl"
        try write([
            try Self.memory("v1", "a poem", counter: 1).replacingOccurrences(of: #""type":"note""#, with: #""type":"poem""#),
            try Self.memory("v2", "pinned twice", counter: 2).replacingOccurrences(of: #""pinned":0"#, with: #""pinned":2"#),
            try Self.memory("v3", "content as a number", counter: 3).replacingOccurrences(of: #""content":"content as a number""#, with: #""content":7"#),
            try Self.memory("v4", "fine", counter: 4),
        ].joined(separator: "\n") + "\n", to: log)
        let report = try me.sync.importPeers()
        #expect(report.applied == 1 && report.skipped == 3)
        #expect(try me.store.memoryIDs() == ["v4"])
        let messages = try me.store.syncStatus(messages: 50).messages.map(\.text).joined(separator: "\n")
        #expect(messages.contains("does not fit that field"))
    }

    @Test func foreignFilesAndFoldersAreSkippedWithAMessage() throws {
        let me = try Device(clock: TestClock(Self.now))
        let devices = me.sync.root + "/devices"
        try write(try Self.memory("x1", "in a folder that is no device", counter: 1) + "\n", to: devices + "/not-a-device/ops-1.jsonl")
        try write(try Self.memory("x2", "half copied", counter: 2) + "\n", to: devices + "/\(Self.peer)/.syncthing.ops-1.jsonl.tmp")
        try write(try Self.memory("x3", "a conflict copy", counter: 3) + "\n",
                  to: devices + "/\(Self.peer)/ops-1.sync-conflict-20261122-100000-ABCDEFG.jsonl")
        try write("notes\n", to: devices + "/\(Self.peer)/README")
        try write(try Self.memory("x4", "the real one", counter: 4) + "\n", to: devices + "/\(Self.peer)/ops-1.jsonl")

        let report = try me.sync.importPeers()
        #expect(report.applied == 1)
        #expect(try me.store.memoryIDs() == ["x4"])
        var messages = try me.store.syncStatus(messages: 50).messages.map(\.text).joined(separator: "\n")
        #expect(messages.contains("devices/not-a-device is not an Engram device's folder"))
        #expect(messages.contains("is a conflict copy, ignored"))

        // A peer that deletes its folder: said so, and what it sent stays.
        try FileManager.default.removeItem(atPath: devices + "/\(Self.peer)")
        try me.sync.importPeers()
        messages = try me.store.syncStatus(messages: 50).messages.map(\.text).joined(separator: "\n")
        #expect(messages.contains("device \(Self.peer)'s folder is gone"))
        #expect(try me.store.memoryIDs() == ["x4"])
    }

    @Test func theLogIsPrivateAndMadeOfCompleteLines() throws {
        let me = try Device(clock: TestClock(Self.now))
        try me.store.remember(MemoryDraft(content: "one"))
        try me.store.remember(MemoryDraft(content: "two\nlines"))
        #expect(try me.sync.export() > 0)
        let segments = SyncFiles.segments(in: me.ownLog)
        #expect(segments.map(\.name) == ["ops-1.jsonl"])
        var st = stat()
        #expect(stat(me.ownLog, &st) == 0 && st.st_mode & 0o777 == 0o700)
        #expect(stat(me.ownLog + "/ops-1.jsonl", &st) == 0 && st.st_mode & 0o777 == 0o600)
        let text = try me.ownLogText()
        #expect(text.hasSuffix("\n"))
        let lines = text.split(separator: "\n")
        #expect(lines.count == 2)
        for line in lines {
            guard case .operation = SyncOperation.parse(line) else { Issue.record("not an operation: \(line)"); continue }
        }
        #expect(try me.sync.export() == 0)  // nothing pending any more

        // An append cut short by a crash: the next export starts after the last complete line.
        try append(#"{"v":1,"hlc":"0000017"#, to: me.ownLog + "/ops-1.jsonl")
        try me.store.remember(MemoryDraft(content: "three"))
        #expect(try me.sync.export() == 1)
        let after = try me.ownLogText().split(separator: "\n", omittingEmptySubsequences: false)
        #expect(after.count == 4 && after.last == "")
        for line in after.dropLast() {
            guard case .operation = SyncOperation.parse(line) else { Issue.record("not an operation: \(line)"); continue }
        }
    }
}
