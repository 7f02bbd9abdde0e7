import EngramTestSupport
import Foundation
import GRDB
import Testing
@testable import EngramCore

/// Clock readings: a counter that never outgrows its six digits, digits only, and no reading far in the future.
@Suite struct ClockTests {
    @Test func aMillionEventsInOneMillisecondCarryIntoTheNextAndTextOrderIsNumericOrder() {
        var c = HybridClock(wall: 5, counter: 999_990)
        var last = c
        for _ in 0..<40 {
            c = c.tick(now: 5)  // the wall clock stands still (a seed or an import of a million operations)
            #expect(c > last)
            #expect(c.description > last.description, "\(c.description) does not sort after \(last.description)")
            #expect(HybridClock(c.description) == c)
            last = c
        }
        #expect(c == HybridClock(wall: 6, counter: 30))
        #expect(HybridClock(wall: 5, counter: 999_999).tick(now: 5).description == "000000000000006.000000")
        // Receiving a reading at the limit carries too.
        let (r, _) = HybridClock(wall: 7, counter: 3).receive(HybridClock(wall: 7, counter: 999_999), now: 1)
        #expect(r == HybridClock(wall: 8, counter: 0) && r.description == "000000000000008.000000")
        // Existing six-digit readings read and order as before.
        #expect(HybridClock("001763805600000.999999") == HybridClock(wall: 1_763_805_600_000, counter: 999_999))
        #expect(HybridClock("001763805600000.000002")! < HybridClock("001763805600000.000010")!)
    }

    @Test func signsAndOtherNonDigitsAreNotClockReadings() {
        for text in ["+01763805600000.000001", "001763805600000.+00001", "-01763805600000.000001", " 01763805600000.000001",
                     "001763805600000.00001 ", "001763805600000.0000_1", "00176380560000.0000001"] {
            #expect(HybridClock(text) == nil, "'\(text)' read as a clock")
        }
    }

    @Test func aSignedClockInAPeersLineIsSkippedWithAMessage() throws {
        let me = try Device(clock: TestClock(BadInputTests.now))
        let good = try BadInputTests.memory("s1", "signed", counter: 1)
        let hlc = HybridClock(wall: HybridClock.milliseconds(BadInputTests.now), counter: 1).description
        let signed = good.replacingOccurrences(of: #""hlc":"\#(hlc)""#, with: #""hlc":"\#(hlc.prefix(16))+\#(hlc.dropFirst(17))""#)
        #expect(signed != good)
        try writeFile(signed + "\n", to: me.sync.root + "/devices/\(BadInputTests.peer)/ops-1.jsonl")
        let report = try me.sync.importPeers()
        #expect(report.applied == 0 && report.skipped == 1)
        #expect(try statusMessages(me).contains("is not a clock reading"))
    }

    @Test func anOperationDatedMoreThanADayAheadIsHeldUntilThenWithAMessage() throws {
        let clock = TestClock(BadInputTests.now)
        let me = try Device(clock: clock)
        let year = HybridClock.milliseconds(BadInputTests.now) + 365 * 86_400_000
        try writeFile(try BadInputTests.memory("f1", "from next year", wall: year, counter: 1) + "\n",
                      to: me.sync.root + "/devices/\(BadInputTests.peer)/ops-1.jsonl")
        #expect(try me.sync.importPeers().parked == 1)
        #expect(try me.store.memory(id: "f1") == nil)
        #expect(try statusMessages(me).contains("more than a day in the future (is device \(BadInputTests.peer)'s clock wrong?); held until then"))
        // A local edit made meanwhile is not beaten by it: the clock did not jump a year.
        #expect(try me.store.read { db in try SyncLog.loadClock(db) }.wall <= HybridClock.milliseconds(clock.now) + HybridClock.maxSkewMilliseconds)
        clock.advance(seconds: 364.5 * 86_400)
        #expect(try me.sync.importPeers().applied == 1)
        #expect(try me.store.requireMemory(id: "f1").content == "from next year")
        #expect(try me.store.syncStatus().parked == 0)
    }
}
