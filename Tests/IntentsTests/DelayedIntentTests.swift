import EngramCore
import Foundation
import EngramApp
import Indexer
import Intents
import Testing

@Suite(.serialized) struct DelayedIntentTests {
    @Test func aDelayedIntentSurvivesARestartAndRunsOnceWhenDue() throws {
        let lib = try TestLibrary()
        let due = try When.after("10m", from: sampleNow)
        #expect(due == sampleNow.addingTimeInterval(600))
        try DelayedIntentRunner(runner: lib.runner()).schedule(IntentInvocation(.memoryStats), phrase: "memory stats", due: due)
        // A restart: a new library on the same folder.
        let again = try Library(paths: lib.paths, clock: { sampleNow })
        var runner = IntentRunner(library: again, source: "daemon")
        runner.calendar = utc
        let delayed = DelayedIntentRunner(runner: runner)
        #expect(try again.store.pendingIntents().count == 1)
        #expect(try delayed.runDue(now: sampleNow.addingTimeInterval(300)).isEmpty)
        let ran = try delayed.runDue(now: sampleNow.addingTimeInterval(660))
        #expect(ran.count == 1)
        #expect(ran.first?.sentence.hasPrefix("You have 300 memories") == true)
        #expect(try delayed.runDue(now: sampleNow.addingTimeInterval(720)).isEmpty, "ran once, not twice")
        #expect(try again.store.pendingIntents().isEmpty)
    }

    @Test func aFailingDelayedIntentIsRecordedNotRetriedForever() throws {
        let lib = try TestLibrary(samples: false)
        let d = DelayedIntentRunner(runner: lib.runner())
        try d.schedule(IntentInvocation(.pauseSession), phrase: "pause session", due: sampleNow)
        let ran = try d.runDue(now: sampleNow)
        #expect(ran.first?.error?.contains("no learning session is running") == true)
        #expect(try lib.library.store.delayedIntent(id: ran[0].delayed.id)?.state == .failed)
        #expect(try d.runDue(now: sampleNow.addingTimeInterval(60)).isEmpty)
    }

    @Test func unacknowledgedResultsAreRealertedUntilSeen() throws {
        let lib = try TestLibrary(samples: false)
        let store = lib.library.store
        let d = try DelayedIntentRunner(runner: lib.runner()).schedule(IntentInvocation(.dailyReview), phrase: nil, due: sampleNow, realert: 300, realertLimit: 2)
        _ = try DelayedIntentRunner(runner: lib.runner()).runDue(now: sampleNow)
        #expect(try store.intentsNeedingRealert(now: sampleNow.addingTimeInterval(100)).isEmpty)
        #expect(try store.intentsNeedingRealert(now: sampleNow.addingTimeInterval(301)).map(\.id) == [d.id])
        try store.noteRealert(id: d.id, at: sampleNow.addingTimeInterval(301))
        try store.acknowledgeDelayedIntent(id: d.id)
        #expect(try store.intentsNeedingRealert(now: sampleNow.addingTimeInterval(1000)).isEmpty)
    }

    @Test func timesAreReadAsPeopleWriteThem() throws {
        #expect(try When.after("1h30m", from: sampleNow) == sampleNow.addingTimeInterval(5400))
        #expect(try When.after("45", from: sampleNow) == sampleNow.addingTimeInterval(2700))
        #expect(try When.at("07:30", from: sampleNow, calendar: utc) == sampleNow.addingTimeInterval(19.5 * 3600))
        #expect(try When.at("13:00", from: sampleNow, calendar: utc) == sampleNow.addingTimeInterval(3600))
        #expect(throws: EngramError.self) { try When.after("soon", from: sampleNow) }
        #expect(throws: EngramError.self) { try When.at("25:00", from: sampleNow) }
    }

    @Test func badArgumentsAreRefusedWhenScheduledNotAtRunTime() throws {
        let lib = try TestLibrary(samples: false)
        #expect(throws: EngramError.self) {
            try DelayedIntentRunner(runner: lib.runner()).schedule(IntentInvocation(.storeMemory), phrase: nil, due: sampleNow)
        }
    }

    @Test func clearingActivityForgetsUsageButKeepsMemoriesAndPendingIntents() throws {
        let lib = try TestLibrary()
        let store = lib.library.store
        _ = try lib.ask("what do I know about sourdough")
        try store.logSearch("sourdough", source: "test")
        try DelayedIntentRunner(runner: lib.runner()).schedule(IntentInvocation(.dailyReview), phrase: nil, due: sampleNow.addingTimeInterval(600))
        #expect(try !store.activity(limit: 10).isEmpty)
        _ = try store.clearActivity()
        #expect(try store.activity(limit: 10).isEmpty)
        #expect(try store.memoryCount() == 300)
        #expect(try store.pendingIntents().count == 1)
    }
}
