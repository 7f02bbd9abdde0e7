import EngramCore
import Foundation
import Testing

@testable import Feeds

/// Feeds read the store with their own SQL and count in Swift, without Foundation (so bars start fast); these keep
/// what they show in step with the core's answers. The rules both share (decay, kinds, paths, timestamps, the
/// streak) are one implementation in EngramRules, tested in EngramRulesTests.
@Suite struct CoreParityTests {
    @Test("stats equal `engram stats` (Store.stats) for every context, in a fixed time zone")
    func stats() throws {
        let f = try MemoryOfTheDayTests.samples()
        try f.store.link("s001", "s002", origin: .manual)
        for (hoursLater, context) in [(0.0, nil), (0, "work"), (30, "personal"), (24 * 40, nil), (5, "nowhere")] as [(Double, String?)] {
            let now = FeedFixture.now.addingTimeInterval(hoursLater * 3600)
            try f.store.setSetting("context", context)
            let core = try f.store.stats(now: now, decay: .standard, context: context, timeZone: TimeZone(secondsFromGMT: FeedFixture.offset)!)
            guard case .stats(let s) = try f.build(FeedRequest(.stats), at: now).payload else {
                Issue.record("no stats payload"); continue
            }
            let label = "context \(context ?? "all"), +\(hoursLater) h"
            #expect(s.total == core.total, "\(label)")
            #expect(s.today == core.today, "\(label)")
            #expect(s.thisWeek == core.thisWeek, "\(label)")
            #expect(s.topTag == core.topTag && s.topTagCount == core.topTagCount, "\(label)")
            #expect(s.connections == core.connections, "\(label)")
            #expect(s.streakDays == core.streakDays, "\(label)")
            #expect(s.perType == core.perType, "\(label)")
            #expect(s.expiringSoon == core.expiringSoon && s.expired == core.expired, "\(label)")
            #expect(s.pinned == core.pinned, "\(label)")
            #expect((s.curricula, s.topics, s.topicsDone) == (core.curricula, core.topics, core.topicsDone), "\(label)")
        }
    }

    @Test("the review feed's due count is the stats feed's expiring-soon count")
    func reviewMatchesStats() throws {
        let f = try MemoryOfTheDayTests.samples()
        for days in stride(from: 0.0, through: 120, by: 10) {
            let now = FeedFixture.now.addingTimeInterval(days * 86_400)
            guard case .stats(let s) = try f.build(FeedRequest(.stats), at: now).payload,
                  case .review(let r, _) = try f.build(FeedRequest(.review), at: now).payload else {
                Issue.record("payloads"); continue
            }
            #expect(r.due == s.expiringSoon, "+\(days) days")
            #expect(r.faded == s.expired, "+\(days) days")
        }
    }

    @Test("titles are the core model's titles", arguments: [
        "plain", "  # Heading\nbody", "\n\n   \n second line", "### \t spaced  \t\nx", "   ", "", "a\r\nb",
        "\u{2003}em space\u{00A0}", "#", "line\u{2028}separator", "e\u{301}\nx", "👩‍👩‍👧‍👦 family",
    ])
    func titles(_ content: String) {
        let core = Memory(id: "x", content: content, created: Date()).title
        #expect(FeedMemory(facts: MemoryFacts(id: "x", created: 0), content: content).title == core)
    }

    @Test("the recent feed lists what Store.recentMemories lists, in order")
    func recent() throws {
        let f = try MemoryOfTheDayTests.samples()
        let core = try f.store.recentMemories(limit: 25).map(\.id)
        guard case .memories(let list) = try f.build(FeedRequest(.recent, limit: 25)).payload else { Issue.record("payload"); return }
        #expect(list.map(\.memory.id) == core)
        let stored = try f.store.memories(ids: core)
        #expect(list.map(\.memory.content) == stored.map(\.content))
        #expect(list.map(\.memory.facts.tags) == stored.map(\.tags))
    }

    @Test("the session feed shows Store.activeSession, with the same running time")
    func session() throws {
        let f = try FeedFixture.standard()
        for step in ["running", "paused", "resumed"] {
            let now = f.clock.now
            if step == "paused" { _ = try f.store.transition(.pause) }
            if step == "resumed" { f.clock.set(now.addingTimeInterval(600)); _ = try f.store.transition(.resume) }
            let later = f.clock.now.addingTimeInterval(90)
            let core = try #require(try f.store.activeSession())
            guard case .session(let d?) = try f.build(FeedRequest(.session), at: later).payload else { Issue.record("idle"); continue }
            #expect(d.session.id == core.id)
            #expect(d.session.state.rawValue == core.state.rawValue)
            #expect(abs(d.elapsed - core.elapsed(at: later)) < 0.01, "\(step)")
            #expect(d.session.progressDone == core.progressDone && d.session.progressTotal == core.progressTotal)
        }
    }

    @Test("config.toml gives the same curve and privacy switch as EngramConfig", arguments: [
        "",
        "[decay]\nreinforcement_factor = 2\n",
        "[decay.half_life_days]\nnote = 10\ntask = 3.5 # short\n",
        "[decay]\nhalf_life_days = { idea = 90, learning = 1_000 }\n",
        "decay.reinforcement_factor = 1.25\ndecay.half_life_days.quote = 365\n",
        "title = \"\"\"\n[decay]\nreinforcement_factor = 9\n\"\"\"\n[privacy]\nfeeds = false\n",
        "phrases = [\n  [\"a\", \"b\"], # [decay]\n  ['c'],\n]\n[decay]\n\"reinforcement_factor\" = 3.0\n",
        "[[shortcuts]]\nkey = \"<Super>m\"\n[privacy]\nfeeds = true\ngnome = false\n",
        "[index]\nupdated = 1979-05-27T07:32:00Z\nday = 1979-05-27\n[decay.half_life_days]\nnote = 0x10\n",
    ])
    func config(_ toml: String) throws {
        let core = try EngramConfig.parse(toml)
        let feed = FeedConfig.parse(toml)
        #expect(feed.warnings.isEmpty, "\(feed.warnings)")
        #expect(feed.decay == core.decay)
        #expect(feed.feedsEnabled == !core.disabledIntegrations.contains("feeds"))
    }

    @Test("a config EngramConfig refuses gives feeds the defaults and a warning, not a broken bar", arguments: [
        "[decay.half_life_days]\nfortnight = 14\n", "[decay]\nreinforcement_factor = 0.5\n", "[decay\nbroken",
    ])
    func badConfig(_ toml: String) {
        #expect(throws: (any Error).self) { try EngramConfig.parse(toml) }
        let feed = FeedConfig.parse(toml)
        #expect(!feed.warnings.isEmpty)
        #expect(feed.decay == .standard)
    }

    @Test("feeds refuse a setting with the core's own words (one section type, one message)", arguments: [
        ("[decay.half_life_days]\nfortnight = 14\n", "[decay.half_life_days] has unknown type 'fortnight'; use one of note, idea, task, quote, learning"),
        ("[decay]\nreinforcement_factor = 0.5\n", "decay.reinforcement_factor must be ≥ 1"),
        ("[decay.half_life_days]\nnote = -3\n", "half_life_days.note must be a positive number of days"),
    ])
    func sameWords(_ toml: String, _ sentence: String) {
        do {
            _ = try EngramConfig.parse(toml)
            Issue.record("the core took \(toml)")
        } catch {
            #expect("\(error)".contains(sentence), "core: \(error)")
        }
        #expect(FeedConfig.parse(toml).warnings == ["config.toml: \(sentence); ignored"])
    }

    @Test("a session host is alive only while that very process runs: not killed, zombie, reused pid, other boot or junk")
    func hostLiveness() throws {
        let me = DeadCaptureTests.me
        let zombie = try DeadCaptureTests.killedProcess(reap: false)
        defer { var status: Int32 = 0; waitpid(zombie.pid, &status, 0) }
        let reaped = try DeadCaptureTests.killedProcess()
        #expect(ProcessIdentity.isAlive(ProcessIdentity.current), "this process is not alive to the feed")
        #expect(ProcessIdentity.current == "\(me.pid):\(me.start):\(me.boot)")
        let dead = [
            zombie.identity, reaped.identity,
            "\(me.pid):\(me.start + 1):\(me.boot)", "\(me.pid):\(me.start):another-boot", "2147483647:\(me.start):\(me.boot)",
            "\(me.pid)", "\(me.pid):\(me.start)", ":\(me.pid):\(me.start):\(me.boot)", "+\(me.pid):\(me.start):\(me.boot)",
            "\(me.pid):\(me.start):\(me.boot):extra", "0:0:\(me.boot)", "-1:0:\(me.boot)", "", "engram capture",
        ]
        for host in dead { #expect(!ProcessIdentity.isAlive(host), "\(host)") }
        #expect(ProcessIdentity.pid(of: zombie.identity) == zombie.pid)
        for pid: Int32 in [zombie.pid, reaped.pid, 2147483647, 0, -1] {
            #expect(ProcessIdentity.identity(of: pid) == nil, "pid \(pid)")
        }
    }
}
