import EngramTestSupport
import Foundation
import GRDB
import Testing
@testable import EngramCore

/// The same set of operations, applied in any order, in any batches and with duplicates, gives the same store;
/// so do lines a peer should not have written: two operations under one stamp, readings far in the future (held),
/// clock readings with a sign (refused).
@Suite struct MergePropertyTests {
    static let devices = ["aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb", "cccccccccccccccc"]
    static let memories = ["m0", "m1", "m2", "m3"]
    static let topics = ["t0", "t1", "t2"]

    /// Random operations from three devices on a few items, so that they collide often.
    static func randomOperations(_ rng: inout SeededRNG) -> [SyncOperation] {
        var seq: [String: Int] = [:]
        var totals: [String: Double] = [:]
        var ops: [SyncOperation] = []
        func date(_ rng: inout SeededRNG) -> SyncValue { .text("2026-11-22 10:00:0\(Int.random(in: 0...9, using: &rng)).000") }
        for _ in 0..<Int.random(in: 5...40, using: &rng) {
            let dev = devices.randomElement(using: &rng)!
            seq[dev, default: 0] += 1
            // Few distinct walls, so readings of different devices tie and the device must break the tie; at the
            // dates' own time (a date more than a day after its operation is refused).
            let clock = HybridClock(wall: baseWall + Int64.random(in: 0...3, using: &rng), counter: seq[dev]!)
            let m = memories.randomElement(using: &rng)!
            let text = SyncValue.text("\(dev.prefix(1)) \(Int.random(in: 0...9, using: &rng))")
            func op(_ kind: SyncOperation.Kind, _ e: SyncEntity, _ item: String, f: [String: SyncValue]? = nil, tag: String? = nil,
                    add: Bool? = nil, other: String? = nil, counter: String? = nil, total: Double? = nil) -> SyncOperation {
                SyncOperation(hlc: clock, dev: dev, op: kind, e: e, item: item, f: f, tag: tag, add: add, other: other,
                              origin: add == true ? (Bool.random(using: &rng) ? "manual" : "auto") : nil,
                              weight: add == true && other != nil ? Double(Int.random(in: 1...4, using: &rng)) / 4 : nil,
                              counter: counter, total: total)
            }
            switch Int.random(in: 0..<100, using: &rng) {
            case 0..<20:
                ops.append(op(.set, .memory, m, f: [
                    "content": text, "type": .text(["note", "idea", "task"].randomElement(using: &rng)!), "context": .null,
                    "created": date(&rng), "updated": date(&rng), "lastReinforced": date(&rng),
                    "pinned": .integer(Int64.random(in: 0...1, using: &rng)), "source": .text(dev)]))
            case 20..<35:
                var f: [String: SyncValue] = ["updated": date(&rng)]
                if Bool.random(using: &rng) { f["content"] = text }
                if Bool.random(using: &rng) { f["pinned"] = .integer(Int64.random(in: 0...1, using: &rng)) }
                if Bool.random(using: &rng) { f["context"] = Bool.random(using: &rng) ? .null : .text("work") }
                ops.append(op(.set, .memory, m, f: f))
            case 35..<50:
                ops.append(op(.tag, .memory, m, tag: ["x", "y", "z"].randomElement(using: &rng)!, add: Bool.random(using: &rng)))
            case 50..<62:
                let other = memories.filter { $0 != m }.randomElement(using: &rng)!
                ops.append(op(.link, .memory, m, f: ["created": date(&rng)], add: Bool.random(using: &rng), other: other))
            case 62..<70:
                let key = "\(dev)/\(m)"
                totals[key, default: 0] += Double(Int.random(in: 1...3, using: &rng))
                ops.append(op(.count, .memory, m, counter: "uses", total: totals[key]))
            case 70..<74:
                ops.append(op(.forget, .memory, m))
            case 74..<80:
                let c = ["c0", "c1"].randomElement(using: &rng)!
                ops.append(op(.set, .curriculum, c, f: ["title": text, "description": .text(""), "created": date(&rng),
                                                       "updated": date(&rng), "source": .null]))
            case 80..<88:
                let t = topics.randomElement(using: &rng)!
                if Bool.random(using: &rng) {
                    ops.append(op(.set, .topic, t, f: ["curriculumID": .text(["c0", "c1"].randomElement(using: &rng)!),
                                                      "position": .integer(Int64.random(in: 0...2, using: &rng)), "title": text,
                                                      "notes": .text(""), "flagged": .integer(0), "done": .integer(0),
                                                      "created": date(&rng), "updated": date(&rng)]))
                } else {
                    ops.append(op(.set, .topic, t, f: ["done": .integer(Int64.random(in: 0...1, using: &rng)), "updated": date(&rng)]))
                }
            case 88..<90:
                ops.append(op(.forget, .topic, topics.randomElement(using: &rng)!))
            case 90..<96:
                let s = ["s0", "s1"].randomElement(using: &rng)!
                ops.append(op(.set, .session, s, f: [
                    "kind": .text("learning"), "title": text, "curriculumID": .text("c0"),
                    "topicID": Bool.random(using: &rng) ? .null : .text(topics.randomElement(using: &rng)!),
                    "state": .text(["running", "paused", "stopped"].randomElement(using: &rng)!), "started": date(&rng),
                    "resumed": .null, "ended": .null, "progressDone": .integer(0), "progressTotal": .integer(3), "updated": date(&rng)]))
            default:
                let s = ["s0", "s1"].randomElement(using: &rng)!
                let key = "\(dev)/\(s)"
                totals[key, default: 0] += Double(Int.random(in: 1...100, using: &rng)) / 8
                ops.append(op(.count, .session, s, counter: "seconds", total: totals[key]))
            }
        }
        // A peer that reuses a stamp: the same clock reading and device, other content.
        for original in ops where Int.random(in: 0..<8, using: &rng) == 0 {
            var twin = original
            switch twin.op {
            case .set where twin.f?["content"] != nil: twin.f?["content"] = .text("twin \(Int.random(in: 0...9, using: &rng))")
            case .set where twin.f?["title"] != nil: twin.f?["title"] = .text("twin \(Int.random(in: 0...9, using: &rng))")
            case .set: twin.f?["updated"] = date(&rng)
            case .tag, .link: twin.add = !(twin.add ?? false)
            case .count: twin.total = (twin.total ?? 0) + 1
            case .forget: twin = SyncOperation(hlc: original.clock, dev: original.dev, op: .tag, e: .memory, item: original.item,
                                               tag: "twin", add: true)
            }
            ops.append(twin)
        }
        // Readings more than a day ahead of the store's clock: held, in every order.
        for original in ops where Int.random(in: 0..<12, using: &rng) == 0 {
            var early = original
            early.hlc = HybridClock(wall: HybridClock.milliseconds(now) + 2 * HybridClock.maxSkewMilliseconds, counter: 1).description
            if early.f?["content"] != nil { early.f?["content"] = .text("from the future") }
            ops.append(early)
        }
        return ops
    }

    /// The stores' clock.
    static let now = ISODate.parse("2026-11-22T12:00:00Z")!
    /// The operations' clock readings start here, when their dates were written.
    static let baseWall = HybridClock.milliseconds(ISODate.parse("2026-11-22T10:00:00Z")!)

    /// The lines of `ops`, with a few copies whose clock reading carries a sign (and other content).
    static func lines(_ ops: [SyncOperation], _ rng: inout SeededRNG) throws -> [String] {
        var lines = try ops.map { try $0.line() }
        for op in ops where Int.random(in: 0..<10, using: &rng) == 0 {
            var signed = op
            signed.hlc = "+" + op.hlc.dropFirst()
            if signed.f?["content"] != nil { signed.f?["content"] = .text("signed") }
            lines.append(try signed.line())
        }
        return lines
    }

    /// A store with sync on (opening one per case would make this test slow).
    static func makeStore(in dir: TempDir, name: String) throws -> Store {
        let store = try Store(path: dir.path + "/\(name)/engram.sqlite", clock: { MergePropertyTests.now })
        try SyncFolder(store: store, root: dir.path + "/\(name)-sync").enable()
        return store
    }

    /// `store` emptied, then holding the operations `lines` hold, read as a peer's lines are and applied in batches
    /// of random sizes.
    static func apply(_ lines: [String], _ rng: inout SeededRNG, to store: Store) throws {
        let ms = HybridClock.milliseconds(now)
        let ops = lines.compactMap { line -> SyncOperation? in
            if case .operation(let op) = SyncOperation.parse(Substring(line), now: ms) { op } else { nil }
        }
        try store.write("empty") { db in
            for table in ["link", "session", "topic", "curriculum", "memory", "outbox", "syncField", "syncRevision", "syncTag",
                          "syncLink", "syncCounter", "syncTombstone"] {
                try db.execute(sql: "DELETE FROM \(table)")
            }
            try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [SyncLog.clockKey])
        }
        var rest = ops[...]
        while !rest.isEmpty {
            let n = Int.random(in: 1...max(1, rest.count), using: &rng)
            let batch = Array(rest.prefix(n))
            rest = rest.dropFirst(n)
            try store.write("apply") { db in _ = try SyncLog.applyRemote(db, batch, at: store.clock()) }
        }
    }

    @Test func anyOrderAnyBatchesAndDuplicatesGiveTheSameStore() throws {
        var rng = SeededRNG(seed: 13)
        var nonTrivial = 0
        let dir = TempDir()
        let reference = try Self.makeStore(in: dir, name: "reference")
        let variants = try (0..<2).map { try Self.makeStore(in: dir, name: "variant\($0)") }
        for caseNumber in 0..<300 {
            let ops = try Self.lines(Self.randomOperations(&rng), &rng)
            try Self.apply(ops, &rng, to: reference)
            let expected = try reference.syncCanonicalText()
            if try reference.memoryCount() > 0 { nonTrivial += 1 }
            for variant in 0..<2 {
                var shuffled = ops.shuffled(using: &rng)
                shuffled += ops.filter { _ in Int.random(in: 0..<3, using: &rng) == 0 }.shuffled(using: &rng)  // duplicates
                try Self.apply(shuffled, &rng, to: variants[variant])
                let got = try variants[variant].syncCanonicalText()
                let diff = Set(got.split(separator: "\n")).symmetricDifference(Set(expected.split(separator: "\n"))).sorted()
                #expect(got == expected, "case \(caseNumber), variant \(variant): \(ops.count) operations; differing lines: \(diff)")
                if got != expected { return }
            }
        }
        #expect(nonTrivial > 150)
    }

    @Test func applyingTheSameOperationsAgainChangesNothing() throws {
        var rng = SeededRNG(seed: 7)
        let dir = TempDir()
        let ops = (0..<10).flatMap { _ in Self.randomOperations(&rng) }.filter { $0.clock.wall < Self.baseWall + 10_000 }
        let store = try Self.makeStore(in: dir, name: "once")
        try Self.apply(try ops.map { try $0.line() }, &rng, to: store)
        let before = try store.syncCanonicalText()
        let outbox = try store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM outbox")! }
        try store.write("again") { db in _ = try SyncLog.applyRemote(db, ops, at: store.clock()) }
        #expect(try store.syncCanonicalText() == before)
        // Nothing changed, so the index has nothing new to learn.
        #expect(try store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM outbox")! } == outbox)
    }

    @Test func theClockIsMonotonicAndBoundedAgainstAFutureReading() {
        var c = HybridClock.zero
        var last = c
        for now in [5, 5, 4, 9, 9, 1] as [Int64] {
            c = c.tick(now: now)
            #expect(c > last)
            last = c
        }
        let day = HybridClock.maxSkewMilliseconds
        let (after, held) = c.receive(HybridClock(wall: 10 + 30 * day), now: 10)
        #expect(held)
        #expect(after.wall <= 10 + day)
        let (normal, heldNormal) = c.receive(HybridClock(wall: 11, counter: 4), now: 10)
        #expect(!heldNormal && normal > HybridClock(wall: 11, counter: 4))
        #expect(HybridClock(HybridClock(wall: 1_764_000_000_123, counter: 42).description) == HybridClock(wall: 1_764_000_000_123, counter: 42))
    }
}
