import EngramCore
@testable import Feeds
import Foundation
import Testing

/// The memory of the day: the same all day, different day to day, drawn from what is closest to being forgotten.
@Suite struct MemoryOfTheDayTests {
    /// The sample collection (300 memories, links) in a fresh store.
    static func samples() throws -> FeedFixture {
        let f = try FeedFixture()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("Samples/memories.jsonl"), encoding: .utf8)
        _ = try Transfer(store: f.store).importJSONLines(text, origin: "memories.jsonl")
        return f
    }

    /// Local (UTC+1) clock time on 2026-11-`day`.
    static func local(_ day: Int, _ time: String) -> Date {
        date("2026-11-\(day)T\(time)+01:00")
    }

    func pick(_ f: FeedFixture, at instant: Date) throws -> String? {
        let result = try f.build(FeedRequest(.motd), at: instant)
        guard case .memory(let d) = result.payload else { return nil }
        return d?.memory.id
    }

    @Test("the same memory from a minute after midnight to a minute before the next")
    func sameAllDay() throws {
        let f = try Self.samples()
        let morning = try #require(try pick(f, at: Self.local(22, "00:01:00")))
        for time in ["07:30:00", "12:00:00", "18:45:00", "23:59:00"] {
            #expect(try pick(f, at: Self.local(22, time)) == morning, "changed by \(time)")
        }
    }

    @Test("opening, reviewing or pinning it, capturing, and forgetting another memory leave it in place")
    func stableUnderUse() throws {
        let f = try Self.samples()
        let chosen = try #require(try pick(f, at: Self.local(22, "08:00:00")))
        try f.use(chosen, .open, at: Self.local(22, "08:05:00"))
        try f.use(chosen, .review, at: Self.local(22, "08:06:00"))
        #expect(try pick(f, at: Self.local(22, "09:00:00")) == chosen, "opening it replaced it")
        try f.at(Self.local(22, "09:30:00")) { _ = try f.store.setPinned(id: chosen, true) }
        #expect(try pick(f, at: Self.local(22, "10:00:00")) == chosen, "pinning it replaced it")
        try f.at(Self.local(22, "10:30:00")) {
            for n in 0..<5 { _ = try f.store.remember(MemoryDraft(content: "captured today \(n)", type: .idea)) }
        }
        #expect(try pick(f, at: Self.local(22, "11:00:00")) == chosen, "a capture replaced it")
        let other = try f.store.allMemories().first { $0.id != chosen }!.id
        try f.at(Self.local(22, "11:30:00")) { _ = try f.store.forget(id: other) }
        #expect(try pick(f, at: Self.local(22, "12:00:00")) == chosen, "forgetting another memory replaced it")
        #expect(try pick(f, at: Self.local(23, "12:00:00")) != nil)
    }

    @Test("it changes from day to day, never the same two days running")
    func changesDayToDay() throws {
        let f = try Self.samples()
        var picks: [String] = []
        for day in 0..<60 {
            picks.append(try #require(try pick(f, at: Self.local(22, "12:00:00").addingTimeInterval(Double(day) * 86_400))))
        }
        let repeats = zip(picks, picks.dropFirst()).filter { $0 == $1 }.count
        #expect(Set(picks).count >= 20, "only \(Set(picks).count) different memories in 60 days")
        #expect(repeats == 0, "the same memory as the day before on \(repeats) of 59 days")
    }

    @Test("each day's memory is among the most faded that have not left search, never one captured that day")
    func followsTheForgettingCurve() throws {
        let f = try Self.samples()
        let model = DecayModel.standard
        var pickedScores: [Double] = []
        var allScores: [Double] = []
        for day in 0..<60 {
            let noon = Self.local(22, "12:00:00").addingTimeInterval(Double(day) * 86_400)
            let midnight = Self.local(22, "00:00:00").addingTimeInterval(Double(day) * 86_400)
            let id = try #require(try pick(f, at: noon))
            let memories = try f.store.allMemories()
            func curve(_ m: Memory) -> Double { var u = m; u.pinned = false; return model.score(of: u, at: midnight) }
            let live = memories.filter { $0.created < midnight && ($0.pinned || !model.isExpired($0, at: midnight)) }
            let ranked = live.sorted { (curve($0), $0.id) < (curve($1), $1.id) }
            let chosen = try #require(memories.first { $0.id == id })
            #expect(ranked.prefix(MemoryOfTheDay.candidateCount).contains { $0.id == id },
                    "day \(day): \(id) is not among the \(MemoryOfTheDay.candidateCount) most faded")
            #expect(chosen.pinned || !model.isExpired(chosen, at: midnight), "day \(day): \(id) had faded from search")
            pickedScores.append(curve(chosen))
            allScores += live.map(curve)
        }
        let meanPicked = pickedScores.reduce(0, +) / Double(pickedScores.count)
        let median = allScores.sorted()[allScores.count / 2]
        #expect(meanPicked < median, "picked memories (mean score \(meanPicked)) are not more faded than most (median \(median))")
    }

    /// Two memories on the same curve (same type and age) that differ only in `tweak`, raced with 4000 seeds.
    func duel(_ tweak: (inout MemoryFacts) -> Void, daysSinceUse: (Double, Double) = (40, 40)) -> (first: Int, second: Int) {
        var wins = (first: 0, second: 0)
        for day in 0..<4000 {
            let now = FeedFixture.now.timeIntervalSince1970 + Double(day) * 86_400
            var a = MemoryFacts(id: "a", kind: .idea, created: now - 500 * 86_400, lastReinforced: now - daysSinceUse.0 * 86_400)
            let b = MemoryFacts(id: "b", kind: .idea, created: now - 500 * 86_400, lastReinforced: now - daysSinceUse.1 * 86_400)
            tweak(&a)
            let winner = MemoryOfTheDay.draw([a, b], at: now, decay: .standard, seed: "engram-motd|day \(day)|").first
            if winner == "a" { wins.first += 1 } else if winner == "b" { wins.second += 1 }
        }
        return wins
    }

    @Test("importance weighs: links, uses of the same strength, pinning")
    func importanceWeighs() {
        let linked = duel { $0.links = 5 }
        #expect(linked.first > linked.second * 3 / 2, "a memory with 5 links won \(linked.first) of 4000 against \(linked.second)")
        let pinned = duel { $0.pinned = true }
        #expect(pinned.first > pinned.second * 6 / 5, "a pinned memory won \(pinned.first) against \(pinned.second)")
    }

    @Test("the more faded memory wins far more often")
    func fadedWins() {
        let wins = duel({ _ in }, daysSinceUse: (80, 2))
        #expect(wins.first > wins.second * 5, "faded \(wins.first) vs fresh \(wins.second)")
    }

    @Test("the active context limits the choice; sleep shows nothing")
    func context() throws {
        let f = try Self.samples()
        try f.store.setSetting("context", "work")
        for day in 0..<20 {
            let result = try f.build(FeedRequest(.motd), at: Self.local(22, "12:00:00").addingTimeInterval(Double(day) * 86_400))
            guard case .memory(let d) = result.payload else { Issue.record("no memory payload"); continue }
            #expect(d?.memory.facts.context == "work")
            #expect(result.context == "work")
        }
        try f.store.setSetting("context", "sleep")
        let asleep = try f.build(FeedRequest(.motd))
        #expect(asleep.state == .sleep)
        #expect(asleep.view.text.isEmpty)
        #expect(WaybarRenderer().render(asleep).contains(#""text":"""#))
    }

    @Test("a collection captured entirely today still has a memory of the day")
    func firstDay() throws {
        let f = try FeedFixture()
        try f.at(Self.local(22, "09:00:00")) {
            _ = try f.store.remember(MemoryDraft(content: "my very first memory", type: .note))
            _ = try f.store.remember(MemoryDraft(content: "and a second one", type: .idea))
        }
        let result = try f.build(FeedRequest(.motd), at: Self.local(22, "10:00:00"))
        #expect(result.state == .ready)
        #expect(!result.view.text.isEmpty)
    }

    @Test("with no memories the feed is empty and the bar hides it")
    func empty() throws {
        let result = try FeedFixture().build(FeedRequest(.motd))
        #expect(result.state == .empty)
        #expect(result.view.text.isEmpty)
    }
}
