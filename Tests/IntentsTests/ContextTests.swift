import EngramCore
import Foundation
import EngramApp
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

/// The defects contexts had outside search: related memories, stats and captures through links ignored the context.
@Suite(.serialized) struct ContextEverywhereTests {
    @Test func relatedMemoriesFollowTheContextAndSleepHidesThem() throws {
        let lib = try TestLibrary()
        let store = lib.library.store
        // A work memory linked to a personal one: without a context both directions show.
        let work = try #require(try store.allMemories().first { $0.context == "work" })
        let personal = try #require(try store.allMemories().first { $0.context == "personal" })
        try store.link(work.id, personal.id, origin: .manual)
        try lib.library.rebuild()
        #expect(try lib.library.related(to: work.id, limit: 10).contains { $0.memory.id == personal.id })

        try ContextControl(store: store).set("work")
        let inWork = try lib.library.related(to: work.id, limit: 10)
        #expect(!inWork.isEmpty)
        #expect(!inWork.contains { $0.memory.id == personal.id }, "a personal memory showed in the work context")
        #expect(inWork.allSatisfy { $0.memory.context == nil || $0.memory.context == "work" }, "\(inWork.map { $0.memory.context ?? "-" })")
        // QueryMemory's "and related" goes through the same path.
        let asked = try lib.ask("what do I know about \(work.title.split(separator: " ").prefix(2).joined(separator: " ")) and related")
        let contexts = try asked.items.map { try store.requireMemory(id: $0.id).context ?? "none" }
        #expect(Set(contexts).isSubset(of: ["work", "none"]), "\(contexts)")

        try ContextControl(store: store).set("sleep")
        #expect(try lib.library.related(to: work.id, limit: 10).isEmpty)
    }

    @Test func statsThroughLinksFollowTheContext() throws {
        let lib = try TestLibrary()
        let links = LinkHandler(library: lib.library, source: "test")
        #expect(try links.open("engram://stats").sentence.hasPrefix("You have 300 memories,"))
        try ContextControl(store: lib.library.store).set("reading")
        let reading = try lib.library.store.allMemories().filter { $0.context == "reading" }.count
        #expect(try links.open("engram://stats").sentence.hasPrefix("You have \(reading) memories in reading,"))
        let (stats, ctx) = try lib.library.store.statsInActiveContext(now: sampleNow, decay: lib.library.config.decay)
        #expect(stats.total == reading && ctx == "reading")
        try ContextControl(store: lib.library.store).set("sleep")
        #expect(try links.open("engram://stats").sentence == "The sleep context is on: nothing is shown.")
        #expect(try lib.library.store.statsInActiveContext(now: sampleNow, decay: lib.library.config.decay).stats.total == 0)
    }

    @Test func capturesThroughLinksAndIntentsGetTheActiveContext() throws {
        let lib = try TestLibrary()
        let store = lib.library.store
        let links = LinkHandler(library: lib.library, source: "test")
        try ContextControl(store: store).set("work")
        let linked = try #require(try links.open("engram://remember?text=Book%20the%20meeting%20room").memory)
        #expect(linked.context == "work")
        let spoken = try #require(try lib.ask("remember to send the quarterly report").items.first)
        #expect(try store.requireMemory(id: spoken.id).context == "work")
        // A capture in work shows in work searches at once.
        #expect(try lib.ask("find quarterly report").items.contains { $0.id == spoken.id })
        // Sleep is not a place to file things: captures made then have no context.
        try ContextControl(store: store).set("sleep")
        #expect(try links.open("engram://remember?text=Dreamt%20of%20sourdough").memory?.context == nil)
        try ContextControl(store: store).clear()
        #expect(try links.open("engram://remember?text=Water%20the%20plants").memory?.context == nil)
    }
}
