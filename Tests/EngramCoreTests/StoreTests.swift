import EngramTestSupport
import Foundation
import GRDB
import Testing
@testable import EngramCore

@Suite struct StoreTests {
    @Test func rememberStoresTheMemoryWithItsOutboxRowInOneGo() throws {
        let dir = TempDir()
        let store = try makeStore(dir)
        let r = try store.remember(MemoryDraft(content: "Use `git worktree add` for a second checkout", type: .learning,
                                               tags: ["Git", " #shell ", "git"], context: "work"))
        #expect(r.created)
        let back = try #require(try store.memory(id: r.memory.id))
        #expect(back == r.memory)
        #expect(back.tags == ["git", "shell"])
        #expect(back.title == "Use `git worktree add` for a second checkout")
        let batch = try store.outboxBatch(after: 0, limit: 10)
        #expect(batch.entries.map(\.itemID) == [r.memory.id])
        #expect(batch.memories[r.memory.id] == back)
    }

    /// An edit in place (the window's) replaces the text through the outbox, so the index follows, drops the old
    /// text's vector, and refuses what a capture refuses; an edit to the same text writes nothing.
    @Test func anEditReplacesTheTextThroughTheOutbox() throws {
        let dir = TempDir()
        let store = try makeStore(dir)
        let m = try store.remember(MemoryDraft(content: "first words")).memory
        try store.write("a vector") { db in
            try db.execute(sql: "INSERT INTO vector (kind, itemID, textHash, data) VALUES ('memory', ?, 'h', x'00000000')",
                           arguments: [m.id])
        }
        let seq = try #require(try store.outboxBatch(after: 0, limit: 10).entries.last?.seq)
        let edited = try store.edit(id: m.id, content: "second words")
        #expect(edited.content == "second words" && edited.title == "second words")
        #expect(try store.memory(id: m.id)?.content == "second words")
        #expect(try store.outboxBatch(after: seq, limit: 10).entries.map(\.itemID) == [m.id])
        #expect(try store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM vector WHERE itemID = ?", arguments: [m.id]) } == 0)
        let after = try store.outboxBatch(after: 0, limit: 100).entries.count
        _ = try store.edit(id: m.id, content: "second words")
        #expect(try store.outboxBatch(after: 0, limit: 100).entries.count == after, "the same text again writes nothing")
        #expect(throws: EngramError.self) { try store.edit(id: m.id, content: "   ") }
        #expect(throws: EngramError.self) { try store.edit(id: m.id, content: "a\u{0}b") }
        #expect(throws: EngramError.self) { try store.edit(id: "nope", content: "x") }
        #expect(try store.memory(id: m.id)?.content == "second words")
    }

    /// An import writes its rows with prepared statements instead of GRDB's record upsert: byte for byte the same
    /// rows (tags' JSON, dates' text, flags), and its outbox rows, new and updated alike.
    @Test func importedRowsAreTheRowsARecordUpsertWrites() throws {
        let a = TempDir(), b = TempDir()
        let bulk = try makeStore(a), records = try makeStore(b)
        let when = Date(timeIntervalSince1970: 1_717_200_000.123)
        var memories = [
            Memory(id: "m1", content: "Slashes / quotes \" and ünïcode ☃", type: .quote, tags: ["a/b", "c\"d", "é"],
                   context: "work", created: when, pinned: true),
            Memory(id: "m2", content: "No tags, no context", type: .task, tags: [], created: when.addingTimeInterval(86_400)),
        ]
        memories[1].useCount = 3
        memories[1].source = "debian"
        #expect(try bulk.upsertMemories(memories) == 2)
        try records.write("records") { db in
            for var m in memories {
                m.tags = TextInput.normalizeTags(m.tags)
                try m.upsert(db)
            }
        }
        func rows(_ store: Store) throws -> [[DatabaseValue]] {
            try store.read { db in try Row.fetchAll(db, sql: "SELECT * FROM memory ORDER BY id").map { Array($0.databaseValues) } }
        }
        #expect(try rows(bulk) == rows(records))
        // An update through the bulk path rewrites the row as the record would.
        memories[0].content = "Edited"
        memories[0].pinned = false
        #expect(try bulk.upsertMemories(memories) == 1)
        try records.write("records") { db in
            var m = memories[0]
            m.tags = TextInput.normalizeTags(m.tags)
            try m.upsert(db)
        }
        #expect(try rows(bulk) == rows(records))
        let outbox = try bulk.outboxBatch(after: 0, limit: 10).entries
        #expect(outbox.map(\.itemID) == ["m1", "m2", "m1"])
        #expect(outbox.allSatisfy { $0.kind == .memory && $0.link })
    }

    /// An imported date more than a day ahead of the clock (a typo, a clock gone wrong) is taken as now: a memory
    /// reinforced in 2999 would never fade, and peers refuse such dates. A date within the day is kept.
    @Test func importedDatesFarAheadAreTakenAsNow() throws {
        let dir = TempDir()
        let clock = TestClock()
        let store = try makeStore(dir, clock: clock)
        let far = try #require(ISODate.parse("2999-01-01T00:00:00Z"))
        var ahead = Memory(id: "f1", content: "From a file with a typo", type: .note, tags: [], created: far)
        ahead.updated = far
        ahead.lastReinforced = far
        let soon = clock.now.addingTimeInterval(3600)
        let near = Memory(id: "f2", content: "Written on a clock an hour fast", type: .note, tags: [], created: soon)
        #expect(try store.upsertMemories([ahead, near]) == 2)
        let back = try store.requireMemory(id: "f1")
        #expect(back.created == clock.now && back.updated == clock.now && back.lastReinforced == clock.now)
        #expect(try store.requireMemory(id: "f2").created == soon)
        // The same file again, later: nothing changes (the stored dates stand in for the far ones, not a new now).
        clock.advance(seconds: 60)
        #expect(try store.upsertMemories([ahead, near]) == 0)
        #expect(try store.requireMemory(id: "f1").created == back.created)
        // A link dated 2999 is recorded at this clock: the sync clock does not jump to 2999 with it.
        try SyncFolder(store: store, root: dir.path + "/shared").enable()
        #expect(try store.importLinks([MemoryLink(fromID: "f1", toID: "f2", origin: .manual, weight: 1, created: far)]) == 0)
        #expect(try store.links(of: "f1").first?.created == clock.now)
        let syncClock = try store.read { db in try SyncLog.loadClock(db) }
        #expect(syncClock.wall <= HybridClock.milliseconds(clock.now) + 1000, "the sync clock followed the file's date: \(syncClock)")
        try store.upsertCurriculum(Curriculum(id: "c-far", title: "Far", created: far),
                                   topics: [Topic(id: "t-far", curriculumID: "c-far", position: 1, title: "T", created: far)])
        #expect(try store.curriculum(id: "c-far")?.created == clock.now)
        #expect(try store.topic(id: "t-far")?.created == clock.now)
    }

    @Test func aRetryWithTheSameRequestIDNeverStoresTwice() throws {
        let dir = TempDir()
        let store = try makeStore(dir)
        let a = try store.remember(MemoryDraft(content: "Buy flour"), requestID: "voice-123")
        let b = try store.remember(MemoryDraft(content: "Buy flour"), requestID: "voice-123")
        #expect(a.created && !b.created)
        #expect(a.memory.id == b.memory.id)
        #expect(try store.memoryCount() == 1)
    }

    @Test func emptyAndOversizedNotesAreRefusedWithAClearMessage() throws {
        let dir = TempDir()
        let store = try makeStore(dir)
        #expect(throws: EngramError.self) { try store.remember(MemoryDraft(content: "  \n ")) }
        let huge = String(repeating: "a", count: Store.maxContentBytes + 1)
        do {
            _ = try store.remember(MemoryDraft(content: huge))
            Issue.record("an oversized note was accepted")
        } catch let e as EngramError {
            #expect(e.description.contains("MiB"))
        }
        #expect(try store.memoryCount() == 0)
        // A 1 MB note is fine.
        let big = try store.remember(MemoryDraft(content: String(repeating: "word ", count: 200_000)))
        #expect(try store.memory(id: big.memory.id)?.content.utf8.count == 1_000_000)
    }

    @Test func dataIsPrivate() throws {
        let dir = TempDir()
        let store = try makeStore(dir)
        _ = try store.remember(MemoryDraft(content: "secret"))
        var st = stat()
        #expect(stat(dir.path + "/data", &st) == 0)
        #expect(st.st_mode & 0o777 == 0o700)
        for name in ["engram.sqlite", "engram.sqlite-wal", "engram.sqlite-shm"] {
            guard stat(dir.path + "/data/" + name, &st) == 0 else { continue }
            #expect(st.st_mode & 0o777 == 0o600, "\(name) is \(String(st.st_mode & 0o777, radix: 8))")
        }
    }

    @Test func forgetRemovesTheMemoryItsLinksAndItsActivity() throws {
        let dir = TempDir()
        let store = try makeStore(dir)
        let a = try store.remember(MemoryDraft(content: "Sourdough needs a lively starter")).memory
        let b = try store.remember(MemoryDraft(content: "Feed the starter 1:5:5")).memory
        try store.link(a.id, b.id, origin: .manual)
        try store.reinforce(id: a.id, action: .open)
        try store.forget(id: a.id)
        #expect(try store.memory(id: a.id) == nil)
        #expect(try store.links(of: b.id).isEmpty)
        let traces = try store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM activity WHERE memoryID = ?", arguments: [a.id]) }
        #expect(traces == 0)
        // The index learns of the removal through the outbox.
        let batch = try store.outboxBatch(after: 0, limit: 100)
        #expect(batch.entries.last?.itemID == a.id)
        #expect(batch.memories[a.id] == nil)
    }

    /// A reader of a snapshot from before a forget keeps the WAL, with the memory's old pages in it: the forget
    /// leaves a marker, and once the reader lets go `finishErasing` (the daemon's chores) empties it, leaving no byte of
    /// the text in the store's files.
    @Test func aForgetAReaderKeptFromErasingIsFinishedLater() throws {
        let dir = TempDir()
        let store = try makeStore(dir)
        let secret = "zanzibar-forget-\(UInt32.random(in: 100_000...999_999))"
        let m = try store.remember(MemoryDraft(content: "The vault code is \(secret)")).memory
        _ = try store.remember(MemoryDraft(content: "Something to keep"))
        func bytesFound() throws -> Bool {
            try [store.path, store.path + "-wal"].contains { path in
                (try? Data(contentsOf: URL(fileURLWithPath: path)))?.range(of: Data(secret.utf8)) != nil
            }
        }
        #expect(try bytesFound(), "the text is in the files before the forget")
        // Another connection (another process would do the same) reading a snapshot taken before the forget.
        let reader = try DatabaseQueue(path: store.path)
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? reader.read { db in
                _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM memory")
                holding.signal()
                release.wait()
            }
            done.signal()
        }
        holding.wait()
        try store.forget(id: m.id)
        #expect(FileManager.default.fileExists(atPath: store.erasePendingPath), "the WAL could not be emptied while the reader held it")
        #expect(try bytesFound(), "the old copy is still in the WAL (what the marker is for)")
        release.signal()
        done.wait()
        #expect(!store.finishErasing(), "nothing left to do once the reader let go")
        #expect(!FileManager.default.fileExists(atPath: store.erasePendingPath))
        #expect(try !bytesFound(), "no byte of the forgotten text in the store or its WAL")
        #expect(!store.finishErasing(), "without a marker there is nothing to do")
    }

    @Test func reinforcingStrengthensAndLogs() throws {
        let dir = TempDir()
        let clock = TestClock()
        let store = try makeStore(dir, clock: clock)
        let m = try store.remember(MemoryDraft(content: "Stoics: focus on what you control")).memory
        clock.advance(days: 10)
        let r = try store.reinforce(id: m.id, action: .review)
        #expect(r.useCount == 1)
        #expect(r.lastReinforced == clock.now)
        let searched = try store.reinforce(id: m.id, action: .search)
        #expect(searched.useCount == 1, "a search listing is not a use")
    }

    @Test func linksAreUndirectedAndManualWins() throws {
        let dir = TempDir()
        let store = try makeStore(dir)
        let a = try store.remember(MemoryDraft(content: "one")).memory
        let b = try store.remember(MemoryDraft(content: "two")).memory
        try store.link(b.id, a.id, origin: .auto, weight: 0.4)
        try store.link(a.id, b.id, origin: .manual, weight: 0.2)
        let links = try store.links(of: a.id)
        #expect(links.count == 1)
        #expect(links[0].origin == .manual)
        #expect(links[0].weight == 0.4)
        #expect(throws: EngramError.self) { try store.link(a.id, a.id, origin: .manual) }
    }

    @Test func curriculaKeepTopicOrderAndDropRemovedTopics() throws {
        let dir = TempDir()
        let store = try makeStore(dir)
        let now = Date()
        let c = Curriculum(id: "c1", title: "Rust", created: now)
        try store.upsertCurriculum(c, topics: (1...3).map { Topic(id: "t\($0)", curriculumID: "c1", position: $0, title: "Topic \($0)", created: now) })
        #expect(try store.topics(of: "c1").map(\.id) == ["t1", "t2", "t3"])
        try store.upsertCurriculum(c, topics: [Topic(id: "t3", curriculumID: "c1", position: 1, title: "Topic 3", created: now)])
        #expect(try store.topics(of: "c1").map(\.id) == ["t3"])
        #expect(throws: EngramError.self) {
            try store.upsertCurriculum(Curriculum(id: "bad id!", title: "x", created: now), topics: [])
        }
    }

    @Test func statsCountTodayStreaksAndFading() throws {
        let dir = TempDir()
        let clock = TestClock(ISODate.parse("2026-11-20T12:00:00Z")!)
        let store = try makeStore(dir, clock: clock)
        _ = try store.remember(MemoryDraft(content: "a", tags: ["x"]))
        clock.advance(days: 1)
        _ = try store.remember(MemoryDraft(content: "b", tags: ["x", "y"]))
        clock.advance(days: 1)
        _ = try store.remember(MemoryDraft(content: "c", type: .task))
        let s = try store.stats(now: clock.now, decay: .standard, timeZone: TimeZone(identifier: "UTC")!)
        #expect(s.total == 3)
        #expect(s.today == 1)
        #expect(s.streakDays == 3)
        #expect(s.topTag == "x" && s.topTagCount == 2)
        #expect(s.perType == ["note": 2, "task": 1])
        let later = try store.stats(now: clock.now + 200 * 86_400, decay: .standard, timeZone: TimeZone(identifier: "UTC")!)
        #expect(later.expired == 3)
    }
}
