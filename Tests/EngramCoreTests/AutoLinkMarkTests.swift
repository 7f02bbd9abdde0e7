import EngramTestSupport
import Foundation
import Testing
@testable import EngramCore

/// The store's side of indexing: which memories have faded, and the auto-link mark that keeps the outbox
/// entries of new memories until they are linked.
@Suite struct AutoLinkMarkTests {
    @Test func fadedMemoriesAreExactlyThoseTheDecayModelSaysHaveFaded() throws {
        let dir = TempDir()
        let clock = TestClock()
        let store = try makeStore(dir, clock: clock)
        let decay = DecayModel.standard
        var memories: [Memory] = []
        for (i, type) in MemoryType.allCases.enumerated() {
            for age in stride(from: 0.0, through: 400, by: 7) {
                let reinforced = clock.now.addingTimeInterval(-age * 86_400 - Double(i))
                memories.append(Memory(id: "m\(i)-\(Int(age))", content: "memory \(i) \(age)", type: type, created: reinforced,
                                       lastReinforced: reinforced, useCount: Int(age) % 4, pinned: Int(age) % 50 == 0))
            }
        }
        try store.upsertMemories(memories)
        for days in [0.0, 30, 180, 365] {
            let now = clock.now.addingTimeInterval(days * 86_400)
            let expected = memories.filter { decay.isExpired($0, at: now) }.map(\.id)
            let faded = try store.fadedMemories(at: now, decay: decay)
            #expect(Set(faded.map(\.id)) == Set(expected), "+\(days) days")
            #expect(faded.count == expected.count, "+\(days) days: a memory read twice")
            #expect(faded.allSatisfy { !$0.pinned })
            #expect(try store.stats(now: now, decay: decay).expired == expected.count, "stats and the list agree")
        }
    }

    @Test func theOutboxKeepsEntriesUntilTheirMemoriesAreLinked() throws {
        let dir = TempDir()
        let clock = TestClock()
        let store = try makeStore(dir, clock: clock)
        let a = try store.remember(MemoryDraft(content: "Sourdough starter with rye flour")).memory
        let b = try store.remember(MemoryDraft(content: "Sourdough starter with wheat flour")).memory
        let seq = try store.latestOutboxSeq()
        #expect(try store.autoLinkedSeq() == 0)
        // The index committed both, the links are not saved yet: pruning keeps the entries.
        try store.pruneOutbox(through: seq)
        #expect(try store.pendingOutboxCount(after: 0) == 2)
        #expect(try store.outboxHolds(through: seq))
        let candidates = try store.autoLinkCandidates(after: 0, through: seq, createdAfter: clock.now.addingTimeInterval(-3600))
        #expect(candidates.map(\.id) == [a.id, b.id])
        try store.recordAutoLinks([(from: b.id, to: [(id: a.id, weight: 0.9), (id: "forgotten", weight: 0.8)])], through: seq)
        #expect(try store.autoLinkedSeq() == seq)
        #expect(try store.links(of: b.id).map { $0.other(than: b.id) } == [a.id], "links to missing memories are skipped")
        try store.pruneOutbox(through: seq)
        #expect(try store.pendingOutboxCount(after: 0) == 0)
        #expect(try !store.outboxHolds(through: seq))
    }

    @Test func onlyTheLatestEntryOfAFreshUnusedMemoryMakesItACandidate() throws {
        let dir = TempDir()
        let clock = TestClock()
        let store = try makeStore(dir, clock: clock)
        let fresh = Memory(id: "fresh", content: "captured now", created: clock.now)
        let old = Memory(id: "old", content: "captured long ago", created: clock.now.addingTimeInterval(-86_400))
        try store.upsertMemories([fresh, old], link: false)  // an import: no links
        let imported = try store.latestOutboxSeq()
        #expect(try store.autoLinkCandidates(after: 0, through: imported, createdAfter: clock.now.addingTimeInterval(-3600)).isEmpty)
        var edited = [fresh, old]
        for i in edited.indices { edited[i].content += " (edited)" }
        try store.upsertMemories(edited)  // changed again, links allowed: only the fresh one counts
        let seq = try store.latestOutboxSeq()
        let candidates = try store.autoLinkCandidates(after: 0, through: seq, createdAfter: clock.now.addingTimeInterval(-3600))
        #expect(candidates.map(\.id) == ["fresh"])
        #expect((candidates.first?.seq ?? 0) > imported, "the capture's entry, not the import's")
        #expect(try store.autoLinkCandidates(after: seq, through: seq, createdAfter: .distantPast).isEmpty)
    }
}
