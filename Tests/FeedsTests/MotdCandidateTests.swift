import EngramCore
@testable import Feeds
import Foundation
import Testing

/// The memory of the day read from a few candidates per group is the one read from every memory.
@Suite struct MotdCandidateTests {
    /// 3,000 memories of every type over two years: use counts up to 14, many sharing one instant, contexts,
    /// pins, tags and links; used, reviewed and pinned over the last days, some captured today.
    static func corpus() throws -> FeedFixture {
        let f = try FeedFixture()
        var rng = SplitMix(state: 42)
        func int(_ n: Int) -> Int { Int.random(in: 0..<n, using: &rng) }
        func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }
        let now = FeedFixture.now
        let shared = (0..<12).map { now.addingTimeInterval(-Double($0 * 29 + 3) * 86_400) }
        let types = MemoryType.allCases
        let contexts: [String?] = [nil, "work", "personal", "reading"]
        var memories: [Memory] = []
        for n in 0..<3000 {
            let created = now.addingTimeInterval(-Double(int(730 * 24)) * 3600 + (n % 97 == 0 ? 3 * 3600 : 0))
            var reinforced = created.addingTimeInterval(Double(int(400 * 24)) * 3600)
            if chance(0.25) { reinforced = shared[int(shared.count)] }
            if reinforced < created || reinforced > now { reinforced = created }
            let uses = chance(0.5) ? 0 : int(15)
            memories.append(Memory(
                id: "m\(String(rng.next() % 1_000_000, radix: 36))-\(n)", content: "memory \(n)", type: types[int(types.count)],
                tags: (0..<int(3)).map { "t\($0 + int(5))" }, context: contexts[int(contexts.count)], created: created,
                lastReinforced: reinforced, useCount: uses, pinned: chance(0.04), source: "test"))
        }
        try f.add(memories)
        for _ in 0..<300 {
            let a = memories[int(memories.count)].id, b = memories[int(memories.count)].id
            if a != b { try f.store.link(min(a, b), max(a, b), origin: .manual) }
        }
        let actions: [Activity.Action] = [.open, .review, .activate]
        for n in 0..<120 {
            let m = memories[int(memories.count)]
            let at = now.addingTimeInterval(-Double(int(4 * 24 * 60)) * 60 + Double(n))
            guard at > m.created else { continue }
            if chance(0.2) {
                try f.at(at) { _ = try f.store.setPinned(id: m.id, !m.pinned) }
            } else {
                try f.use(m.id, actions[int(actions.count)], at: at)
            }
        }
        return f
    }

    @Test("on thousands of varied memories, for hundreds of days and every context, both paths choose the same memory")
    func sameChoice() throws {
        let f = try Self.corpus()
        let source = try f.source()
        #expect(try source.fadingGroups() != nil, "the store has no index to read candidates from")
        var instants = stride(from: -5 * 24, through: 2 * 24, by: 7).map { Double($0) * 3600 }
        instants += stride(from: 3, through: 900, by: 15).map { Double($0) * 86_400 + 13 * 3600 }
        instants += stride(from: 40, through: 800, by: 60).map { -Double($0) * 86_400 }
        var compared = 0, differentDays = Set<String>()
        for context in [nil, "work", "personal", "reading", "nowhere"] as [String?] {
            for offset in instants {
                let env = f.environment(at: FeedFixture.now.addingTimeInterval(offset))
                let scope = FeedScope(source: source, env: env, context: context, request: FeedRequest(.motd))
                let facts = try scope.facts()
                let groups = try #require(try source.fadingGroups())
                for day in [env.today, env.today - 1] {
                    let exhaustive = try MemoryOfTheDay.ranking(facts, day: day, scope: scope)
                    let indexed = try MemoryOfTheDay.ranking(groups, day: day, scope: scope)
                    #expect(indexed == exhaustive, "context \(context ?? "none"), \(offset / 86_400) days, day \(day)")
                }
                let chosen = try MemoryOfTheDay.choose(scope)
                #expect(chosen == (try MemoryOfTheDay.choose(facts, scope: scope)), "context \(context ?? "none"), \(offset / 86_400) days")
                if let chosen { differentDays.insert(chosen) }
                compared += 1
            }
        }
        #expect(compared > 400)
        #expect(differentDays.count > 50, "only \(differentDays.count) different memories chosen: the corpus does not exercise the draw")
    }

    @Test("a store without the index (not yet migrated) still gets the memory of the day")
    func withoutIndex() throws {
        let f = try MemoryOfTheDayTests.samples()
        let before = try f.build(FeedRequest(.motd), at: MemoryOfTheDayTests.local(22, "12:00:00"))
        // As a store from before the migration: neither the index nor its migration's row.
        try f.execute("DROP INDEX \(StoreSchema.memoryFadingIndex)")
        try f.execute("DELETE FROM \(StoreSchema.migrationsTable) WHERE identifier = '\(StoreSchema.Migration.memoryFadingIndex.rawValue)'")
        #expect(try f.source().fadingGroups() == nil)
        let after = try f.build(FeedRequest(.motd), at: MemoryOfTheDayTests.local(22, "12:00:00"))
        #expect(after.state == .ready)
        #expect(after == before)
    }
}
