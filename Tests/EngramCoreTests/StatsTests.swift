import EngramCore
import EngramTestSupport
import Foundation
import Testing

/// `Store.stats` counts in SQL; it must agree with counting every decoded memory, as it used to.
@Suite struct StatsTests {
    /// The former implementation: decode every memory and count in Swift.
    static func reference(_ store: Store, now: Date, decay: DecayModel, context: String?, timeZone: TimeZone) throws -> MemoryStats {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = timeZone
        let startOfDay = cal.startOfDay(for: now)
        let weekAgo = cal.date(byAdding: .day, value: -6, to: startOfDay)!
        var s = try store.stats(now: now, decay: decay, context: context, timeZone: timeZone)  // non-memory counts
        let memories = try store.allMemories().filter { context == nil || $0.context == context }
        s.total = memories.count
        (s.today, s.thisWeek, s.pinned, s.expired, s.expiringSoon, s.perType) = (0, 0, 0, 0, 0, [:])
        var tagCounts: [String: Int] = [:]
        var days = Set<Date>()
        for m in memories {
            if m.created >= startOfDay { s.today += 1 }
            if m.created >= weekAgo { s.thisWeek += 1 }
            s.perType[m.type.rawValue, default: 0] += 1
            for t in m.tags { tagCounts[t, default: 0] += 1 }
            if m.pinned { s.pinned += 1 }
            days.insert(cal.startOfDay(for: m.created))
            if let exp = decay.expiry(of: m) {
                if exp <= now { s.expired += 1 } else if exp.timeIntervalSince(now) <= 7 * 86_400 { s.expiringSoon += 1 }
            }
        }
        s.topTag = nil
        s.topTagCount = 0
        if let top = tagCounts.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }) {
            s.topTag = top.key
            s.topTagCount = top.value
        }
        s.streakDays = 0
        var day = days.contains(startOfDay) ? startOfDay : cal.date(byAdding: .day, value: -1, to: startOfDay)!
        while days.contains(day) {
            s.streakDays += 1
            day = cal.date(byAdding: .day, value: -1, to: day)!
        }
        return s
    }

    @Test func sqlCountsMatchCountingEveryMemory() throws {
        let dir = TempDir()
        let start = ISODate.parse("2026-03-01T09:30:00Z")!
        let store = try makeStore(dir)
        let types: [MemoryType] = [.note, .idea, .task, .quote, .learning]
        var memories: [Memory] = []
        for i in 0..<900 {
            // Captures on most days over ~10 months, some days skipped, several a day.
            let created = start.addingTimeInterval(Double(i / 3) * 86_400 + Double((i * 7919) % 86_400))
            let reinforced = created.addingTimeInterval(Double(i % 4) * 3 * 86_400)
            let tags = [["rust"], ["rust", "cli"], [], ["bread"], ["cli"], ["a", "b", "a"]][i % 6]
            if i % 37 == 5 { continue }  // a gap in the streak
            memories.append(Memory(id: "m\(i)", content: "memory \(i)", type: types[i % 5], tags: tags,
                                   context: i % 3 == 0 ? "work" : nil, created: created, lastReinforced: reinforced,
                                   useCount: (i * 5) % 12, pinned: i % 11 == 0))
        }
        try store.upsertMemories(memories)
        let last = memories.map(\.created).max()!
        // Moments around the collection, including ones right on a memory's fading boundary.
        var moments = [last, last.addingTimeInterval(3600), last.addingTimeInterval(86_400 * 2), start.addingTimeInterval(86_400 * 40),
                       last.addingTimeInterval(86_400 * 90), last.addingTimeInterval(86_400 * 400)]
        for m in memories.prefix(12) where !m.pinned {
            let expiry = DecayModel.standard.expiry(of: m)!
            moments += [expiry, expiry.addingTimeInterval(-0.0005), expiry.addingTimeInterval(7 * 86_400), expiry.addingTimeInterval(-7 * 86_400)]
        }
        let zones = ["UTC", "Europe/Berlin", "America/St_Johns", "Asia/Kathmandu"].map { TimeZone(identifier: $0)! }
        for (n, now) in moments.enumerated() {
            let zone = zones[n % zones.count]
            for context in [nil, "work"] as [String?] {
                let fast = try store.stats(now: now, decay: .standard, context: context, timeZone: zone)
                let slow = try Self.reference(store, now: now, decay: .standard, context: context, timeZone: zone)
                #expect(fast == slow, "at \(now) in \(zone.identifier), context \(context ?? "-")")
            }
        }
    }
}
