import EngramCore
import Foundation
import Indexer
import Intents
import Testing

@Suite(.serialized) struct ContextTests {
    func contexts(_ lib: TestLibrary, _ r: IntentResult) throws -> Set<String> {
        Set(try r.items.map { try lib.library.store.requireMemory(id: $0.id).context ?? "none" })
    }

    @Test func workContextHidesPersonalMemoriesFromSearch() throws {
        let lib = try TestLibrary()
        let all = try lib.ask("show 50 memories about week")
        #expect(try contexts(lib, all).count > 1)
        try ContextControl(store: lib.library.store).set("work")
        let work = try lib.ask("show 50 memories about week")
        #expect(!work.items.isEmpty)
        #expect(try contexts(lib, work).isSubset(of: ["work", "none"]))
    }

    @Test func sleepShowsNothingAnywhere() throws {
        let lib = try TestLibrary()
        try ContextControl(store: lib.library.store).set("sleep")
        #expect(try lib.ask("what do I know about swift").items.isEmpty)
        #expect(try lib.ask("daily review").items.isEmpty)
        #expect(try lib.ask("memory stats").sentence == "The sleep context is on: nothing is shown.")
        #expect(try lib.ask("summarize running").lines.isEmpty)
        let g = try lib.ask("show connections of s004").graph
        #expect(g?.nodes.count == 1)
        try ContextControl(store: lib.library.store).clear()
        #expect(!(try lib.ask("what do I know about swift").items.isEmpty))
    }

    @Test func statsCountOnlyTheContext() throws {
        let lib = try TestLibrary()
        let everything = try lib.ask("memory stats").sentence
        try ContextControl(store: lib.library.store).set("reading")
        let reading = try lib.ask("memory stats").sentence
        #expect(everything.hasPrefix("You have 300 memories"))
        #expect(reading.contains(" in reading,"))
        #expect(reading != everything)
    }

    @Test func followingDoNotDisturbSleepsAndWakesBack() throws {
        let lib = try TestLibrary(samples: false)
        final class Banners: @unchecked Sendable { var on = true }
        let banners = Banners()
        let control = ContextControl(store: lib.library.store, readShowBanners: { banners.on })
        try control.set("work")
        try control.setFollowDND(true)
        #expect(try control.current() == "work")
        banners.on = false
        #expect(try control.sync() == "sleep")
        banners.on = true
        #expect(try control.sync() == "work")  // back to what it was, not cleared
        // A sleep the person chose is not undone by banners coming on.
        try control.set("sleep")
        #expect(try control.sync() == "sleep")
        try control.setFollowDND(false)
        banners.on = false
        try control.clear()
        #expect(try control.sync() == nil)
    }

    @Test func badContextNamesAreRefused() throws {
        let lib = try TestLibrary(samples: false)
        #expect(throws: EngramError.self) { try ContextControl(store: lib.library.store).set("my work; rm") }
    }
}
