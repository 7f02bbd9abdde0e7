import EngramTestSupport
import Foundation
import GRDB
import Testing
@testable import EngramCore

/// Two devices doing seeded random work through the store's own API, syncing now and then in one direction or
/// the other, end the same once every log has reached every device, and lose nothing but what was forgotten.
@Suite struct RandomConvergenceTests {
    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func randomWorkOnTwoDevicesConverges(seed: UInt64) throws {
        var rng = SeededRNG(seed: seed)
        let start = ISODate.parse("2026-11-22T10:00:00Z")!
        let a = try Device(clock: TestClock(start)), b = try Device(clock: TestClock(start + Double(seed) * 37))
        try a.store.upsertCurriculum(Curriculum(id: "c", title: "Course", created: start), topics: [
            Topic(id: "t1", curriculumID: "c", position: 0, title: "One", created: start),
            Topic(id: "t2", curriculumID: "c", position: 1, title: "Two", created: start),
        ])
        try converge([a, b])
        var written: [String: Set<String>] = [:]  // memory id → every content written to it
        var forgotten = Set<String>()
        var counter = 0

        func work(_ d: Device, _ rng: inout SeededRNG) throws {
            d.clock.advance(seconds: Double(Int.random(in: 1...30, using: &rng)))
            let ids = try d.store.memoryIDs()
            let pick = ids.randomElement(using: &rng)
            counter += 1
            switch Int.random(in: 0..<100, using: &rng) {
            case 0..<25:
                let text = "memory \(counter) written on \(d === a ? "A" : "B")"
                let m = try d.store.remember(MemoryDraft(content: text, tags: ["t\(counter % 4)"])).memory
                written[m.id, default: []].insert(text)
            case 25..<45:
                guard let id = pick else { return }
                var m = try d.store.requireMemory(id: id)
                m.content = "edit \(counter) of \(id) on \(d === a ? "A" : "B")"
                try d.store.upsertMemories([m])
                written[id, default: []].insert(m.content)
            case 45..<60:
                guard let id = pick else { return }
                let tag = "t\(Int.random(in: 0..<4, using: &rng))"
                if Bool.random(using: &rng) { try d.store.retag(id: id, add: [tag]) } else { try d.store.retag(id: id, remove: [tag]) }
            case 60..<72:
                guard ids.count >= 2 else { return }
                let two = Array(ids.shuffled(using: &rng).prefix(2))
                if Bool.random(using: &rng) { try d.store.link(two[0], two[1], origin: .manual) } else { try d.store.unlink(two[0], two[1]) }
            case 72..<80:
                guard let id = pick else { return }
                try d.store.reinforce(id: id, action: .open)
            case 80..<85:
                guard let id = pick else { return }
                try d.store.setPinned(id: id, Bool.random(using: &rng))
            case 85..<89:
                guard let id = pick else { return }
                try d.store.forget(id: id)
                forgotten.insert(id)
            default:
                if let s = try d.store.activeSession() {
                    _ = try? d.store.transition([.pause, .resume, .stop].randomElement(using: &rng)!, sessionID: s.id)
                } else {
                    _ = try? d.store.startLearningSession(curriculumID: "c")
                }
            }
        }

        for _ in 0..<150 {
            try work(Bool.random(using: &rng) ? a : b, &rng)
            if Int.random(in: 0..<6, using: &rng) == 0 {
                // A partial exchange: one direction only.
                let (from, to) = Bool.random(using: &rng) ? (a, b) : (b, a)
                try from.sync.export()
                try from.ship(to: to)
                try to.sync.importPeers()
            }
        }
        try converge([a, b], rounds: 3)
        #expect(written.count >= 20 && written.values.contains { $0.count > 1 })
        #expect(try a.store.sessions().count >= 1 && a.store.allLinks().count >= 1)

        #expect(try a.store.syncCanonicalText() == b.store.syncCanonicalText(), "seed \(seed)")
        for store in [a.store, b.store] {
            let canonical = try store.syncCanonicalText()
            for (id, texts) in written {
                if forgotten.contains(id) {
                    #expect(try store.memory(id: id) == nil)
                    for t in texts { #expect(!canonical.contains(t), "forgotten text \(t) survives") }
                } else {
                    let current = try store.memory(id: id).map { [$0.content] } ?? []
                    let old = try store.revisions(of: .memory, id: id).compactMap { r -> String? in
                        if r.field == "content", case .text(let t) = r.value { t } else { nil }
                    }
                    #expect(Set(current + old) == texts, "seed \(seed): \(id)")
                }
            }
        }
        for d in [a, b] {
            let log = try d.ownLogText()
            for id in forgotten { for t in written[id] ?? [] { #expect(!log.contains(t), "forgotten text \(t) in a log") } }
        }
    }
}
