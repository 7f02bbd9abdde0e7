import EngramTestSupport
import Foundation
import GRDB
import Testing
@testable import EngramCore

/// Two devices, each with its own data folder and its own copy of the sync folder, copied between them by plain
/// file copies (what Syncthing does, without Syncthing).
@Suite struct ConvergenceTests {
    static let start = ISODate.parse("2026-11-22T10:00:00Z")!

    /// The current value of a memory's content and every value it lost.
    func contents(_ store: Store, _ id: String) throws -> [String] {
        let current = try store.memory(id: id).map { [$0.content] } ?? []
        return current + (try store.revisions(of: .memory, id: id)).compactMap {
            if $0.field == "content", case .text(let t) = $0.value { t } else { nil }
        }
    }

    /// Every file under `path`, concatenated.
    func allText(under path: String) throws -> String {
        var text = ""
        let e = FileManager.default.enumerator(atPath: path)
        while let name = e?.nextObject() as? String {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: path + "/" + name, isDirectory: &isDir), !isDir.boolValue {
                text += String(decoding: try Data(contentsOf: URL(fileURLWithPath: path + "/" + name)), as: UTF8.self)
            }
        }
        return text
    }

    @Test func concurrentEditsOnTwoDevicesConvergeAndLoseNothing() throws {
        let a = try Device(clock: TestClock(Self.start))
        // B's clock runs 10 minutes ahead of A's.
        let b = try Device(clock: TestClock(Self.start + 600))
        #expect(a.id != b.id)

        let m1 = try a.store.remember(MemoryDraft(content: "Original wording of the first note", tags: ["x"])).memory
        let m2 = try a.store.remember(MemoryDraft(content: "A second note to link")).memory
        let m3 = try a.store.remember(MemoryDraft(content: "Locker code tangerine-77", tags: ["private"])).memory
        try a.store.upsertCurriculum(Curriculum(id: "swift", title: "Swift Concurrency", created: Self.start), topics: [
            Topic(id: "sendable", curriculumID: "swift", position: 0, title: "Sendable", created: Self.start),
            Topic(id: "actors", curriculumID: "swift", position: 1, title: "Actors", created: Self.start),
        ])
        try a.store.link(m1.id, m2.id, origin: .manual)
        try converge([a, b])
        #expect(try b.store.memory(id: m1.id)?.content == "Original wording of the first note")
        #expect(try b.store.topics(of: "swift").map(\.title) == ["Sendable", "Actors"])
        #expect(try b.store.links(of: m1.id).count == 1)
        #expect(try a.store.syncDigest() == b.store.syncDigest())

        // Offline on both, concurrently:
        a.clock.advance(seconds: 60)
        b.clock.advance(seconds: 60)
        // the same field edited on both,
        var onA = try a.store.requireMemory(id: m1.id)
        onA.content = "A's wording of the first note"
        try a.store.upsertMemories([onA])
        var onB = try b.store.requireMemory(id: m1.id)
        onB.content = "B's wording of the first note"
        try b.store.upsertMemories([onB])
        // a tag removed on one and added again on the other, a new tag on each,
        try a.store.retag(id: m1.id, add: ["from-a"], remove: ["x"])
        try b.store.retag(id: m1.id, add: ["x", "from-b"])
        // a link removed on one and made again on the other, and one made on a memory the other forgets,
        try a.store.unlink(m1.id, m2.id)
        try b.store.link(m1.id, m2.id, origin: .manual)
        try b.store.link(m2.id, m3.id, origin: .manual)
        // a memory forgotten on one while the other edits it,
        try a.store.forget(id: m3.id)
        var secret = try b.store.requireMemory(id: m3.id)
        secret.content = "Locker code tangerine-77, and the bike lock is 4411"
        try b.store.upsertMemories([secret])
        try b.store.retag(id: m3.id, add: ["tangerine-77"])
        // uses on both,
        try a.store.reinforce(id: m1.id, action: .open)
        try b.store.reinforce(id: m1.id, action: .open)
        try b.store.reinforce(id: m1.id, action: .open)
        // and a learning session on each, plus a capture on B.
        let sa = try a.store.startLearningSession(curriculumID: "swift")
        let sb = try b.store.startLearningSession(curriculumID: "swift", topicID: "actors")
        a.clock.advance(seconds: 300)
        b.clock.advance(seconds: 120)
        try a.store.transition(.pause, sessionID: sa.id)
        try b.store.transition(.stop, sessionID: sb.id)
        let capture = try b.store.startCaptureSession(title: "Ideas")
        try b.store.recordCapture(sessionID: capture.id)
        try a.store.setTopicDone(id: "sendable", true)

        try converge([a, b], rounds: 2)

        #expect(try a.store.syncDigest() == b.store.syncDigest())
        #expect(try a.store.syncCanonicalText() == b.store.syncCanonicalText())
        for store in [a.store, b.store] {
            // Every value written is there, as the current one or a revision; B's clock is later, so B's wins.
            let all = try contents(store, m1.id)
            #expect(all.first == "B's wording of the first note")
            for v in ["Original wording of the first note", "A's wording of the first note", "B's wording of the first note"] {
                #expect(all.contains(v), "\(v) is missing")
            }
            // Only what was edited has history: the edits changed the text, not the type or the context.
            #expect(Set(try store.revisions(of: .memory, id: m1.id).map(\.field)) == ["content"])
            let m = try store.requireMemory(id: m1.id)
            #expect(Set(m.tags) == ["x", "from-a", "from-b"])
            #expect(m.useCount == 3)
            #expect(try store.links(of: m1.id).map { $0.other(than: m1.id) } == [m2.id])
            #expect(try store.links(of: m2.id).count == 1)
            #expect(try store.memory(id: m3.id) == nil)
            #expect(try store.revisions(of: .memory, id: m3.id).isEmpty)
            #expect(try !store.syncCanonicalText().contains("tangerine"))
            #expect(try store.topic(id: "sendable")?.done == true)
            let sessions = try store.sessions()
            #expect(Set(sessions.map(\.id)) == [sa.id, sb.id, capture.id])
            #expect(abs((try store.session(id: sa.id)?.accumulatedSeconds ?? 0) - 300) < 0.01)
            #expect(abs((try store.session(id: sb.id)?.accumulatedSeconds ?? 0) - 120) < 0.01)
            #expect(try store.session(id: capture.id)?.progressDone == 1)
        }
        // The forgotten text is gone from both devices' logs, their copies of the other's, and the store files.
        for d in [a, b] {
            #expect(try !d.ownLogText().contains("tangerine"))
            #expect(try !allText(under: d.sync.root).contains("tangerine"))
            #expect(try !allText(under: d.dir.path + "/data").contains("tangerine"))
        }
        // What arrived from the other device reached the outbox, as a local edit does, for the index to follow.
        let outbox = try b.store.outboxBatch(after: 0, limit: 10_000)
        #expect(outbox.entries.contains { $0.itemID == m1.id && !$0.link })
        #expect(outbox.entries.contains { $0.itemID == m3.id })
    }

    @Test func aTopicTakenOutOfItsCurriculumAndPutBackComesBack() throws {
        let a = try Device(), b = try Device()
        let c = Curriculum(id: "git", title: "Git", created: Self.start)
        let one = Topic(id: "rebase", curriculumID: "git", position: 0, title: "Rebase", created: Self.start)
        let two = Topic(id: "bisect", curriculumID: "git", position: 1, title: "Bisect", created: Self.start)
        try a.store.upsertCurriculum(c, topics: [one, two])
        try converge([a, b])
        a.clock.advance(seconds: 1)
        try a.store.upsertCurriculum(c, topics: [one])
        try converge([a, b])
        #expect(try b.store.topics(of: "git").map(\.id) == ["rebase"])
        a.clock.advance(seconds: 1)
        try a.store.upsertCurriculum(c, topics: [one, two])
        try converge([a, b])
        for d in [a, b] { #expect(try d.store.topics(of: "git").map(\.id) == ["rebase", "bisect"]) }
        #expect(try a.store.syncDigest() == b.store.syncDigest())
    }

    @Test func aCaptureRunningOnOneDeviceIsNotEndedByTheOther() throws {
        let a = try Device(), b = try Device()
        let capture = try a.store.startCaptureSession(title: "Ideas")
        try converge([a, b])
        #expect(try b.store.session(id: capture.id)?.state == .running)
        #expect(try b.store.endOrphanedCaptures().isEmpty)
        try converge([a, b])
        #expect(try a.store.session(id: capture.id)?.state == .running)
    }

    @Test func theConfigNamesTheSyncFolder() throws {
        #expect(try EngramConfig.parse("[sync]\nfolder = \"/srv/sync/engram\"\n").syncFolder == "/srv/sync/engram")
        #expect(try EngramConfig.parse("").syncFolder == nil)
        #expect(throws: EngramError.self) { try EngramConfig.parse("[sync]\nfolder = 3\n") }
        #expect(throws: EngramError.self) { try EngramConfig.parse("[sync]\nfolder = \"Sync/engram\"\n") }
        #expect(try EngramConfig.parse("[sync]\nfolder = \"~/Sync/engram\"\n").syncFolder == NSHomeDirectory() + "/Sync/engram")
    }

    @Test func withSyncOffNothingIsRecorded() throws {
        let dir = TempDir()
        let clock = TestClock()  // the device's clock: a store on today's clock would be days "in the future" to it
        let store = try Store(path: dir.path + "/engram.sqlite", clock: { clock.now })
        let m = try store.remember(MemoryDraft(content: "Not synced", tags: ["a"])).memory
        try store.reinforce(id: m.id, action: .open)
        let counts = try store.read { db in
            try ["syncPending", "syncField", "syncTag", "syncCounter"].map { try Int.fetchOne(db, sql: "SELECT count(*) FROM \($0)")! }
        }
        #expect(counts == [0, 0, 0, 0])
        #expect(try store.syncDevice() == nil)
        // Turning sync on later seeds the whole state, so a new device gets everything.
        let other = try Device()
        let sync = SyncFolder(store: store, root: other.sync.root)
        try sync.enable()
        try sync.export()
        try other.sync.importPeers()
        let copy = try other.store.requireMemory(id: m.id)
        #expect(copy.content == "Not synced" && copy.tags == ["a"] && copy.useCount == 1)
    }
}
