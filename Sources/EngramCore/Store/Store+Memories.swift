import Foundation
import GRDB

/// The outcome of a capture.
public struct RememberResult: Sendable, Equatable {
    /// The memory as stored.
    public var memory: Memory
    /// False when a retry with the same request id found the memory already stored.
    public var created: Bool
}

extension Store {
    /// Stores a new memory with its outbox row; a repeated `requestID` returns the first memory instead of storing twice.
    public func remember(_ draft: MemoryDraft, requestID: String? = nil) throws -> RememberResult {
        let content = draft.content
        guard !content.allSatisfy({ $0.isWhitespace }) else {
            throw EngramError.invalidInput("nothing to remember: the text is empty")
        }
        guard content.utf8.count <= Store.maxContentBytes else {
            throw EngramError.invalidInput("this note is \(content.utf8.count / 1024) KiB; Engram keeps notes up to \(Store.maxContentBytes / 1024 / 1024) MiB. Split it, or import it as a folder of Markdown notes.")
        }
        try TextInput.requireNoNUL(content, what: "the text")
        if let c = draft.context, !c.isEmpty, !Identifier.isValid(c) {
            throw EngramError.invalidInput("context '\(c)' must be letters, digits, '-', '_' or '.'")
        }
        if let r = requestID, r.utf8.count > 256 {
            throw EngramError.invalidInput("request id is longer than 256 bytes")
        }
        let now = clock()
        return try write("save the memory") { db in
            if let r = requestID, !r.isEmpty,
               let existing = try String.fetchOne(db, sql: "SELECT memoryID FROM request WHERE requestID = ?", arguments: [r]),
               let memory = try Memory.fetchOne(db, key: existing) {
                return RememberResult(memory: memory, created: false)
            }
            var id = Identifier.make()
            while try Memory.exists(db, key: id) { id = Identifier.make() }
            let memory = Memory(id: id, content: content, type: draft.type, tags: TextInput.normalizeTags(draft.tags),
                                context: (draft.context?.isEmpty ?? true) ? nil : draft.context, created: now,
                                pinned: draft.pinned, source: draft.source)
            try memory.insert(db)
            try Store.enqueue(db, .memory, id, at: now)
            try SyncLog.record(db, at: now) { r in
                try r.set(.memory, memory)
                try r.tags(id, add: memory.tags)
            }
            try Store.log(db, .remember, memoryID: id, source: draft.source, at: now)
            if let r = requestID, !r.isEmpty {
                try db.execute(sql: "INSERT INTO request(requestID, memoryID, at) VALUES (?, ?, ?)", arguments: [r, id, now])
            }
            return RememberResult(memory: memory, created: true)
        }
    }

    /// The memory with `id`, or nil.
    public func memory(id: String) throws -> Memory? {
        try read { db in try Memory.fetchOne(db, key: id) }
    }

    /// The memory with `id`, or a not-found error that says how to find one.
    public func requireMemory(id: String) throws -> Memory {
        guard let m = try memory(id: id) else {
            throw EngramError.notFound("no memory with id '\(id)'; `engram search` shows ids")
        }
        return m
    }

    /// The memories with these ids, in the given order, skipping unknown ids.
    public func memories(ids: [String]) throws -> [Memory] {
        let found = try read { db in try Memory.fetchAll(db, keys: ids) }
        let byID = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        return ids.compactMap { byID[$0] }
    }

    /// The text and pin of the memories with these ids (unknown ids are left out): what a search result
    /// needs besides its hit, without decoding whole memories.
    public func memoryTexts(ids: [String]) throws -> [String: (content: String, pinned: Bool)] {
        guard !ids.isEmpty else { return [:] }
        // One statement per 500 ids, prepared once per count (the desktop's metas ask for five memories per keystroke),
        // outside a transaction.
        var texts: [String: (content: String, pinned: Bool)] = [:]
        for start in stride(from: 0, to: ids.count, by: 500) {
            let chunk = Array(ids[start..<min(start + 500, ids.count)])
            let marks = repeatElement("?", count: chunk.count).joined(separator: ",")
            try readOneStatement { db in
                let statement = try db.cachedStatement(sql: "SELECT id, content, pinned FROM memory WHERE id IN (\(marks))")
                let rows = try Row.fetchCursor(statement, arguments: StatementArguments(chunk))
                while let row = try rows.next() {
                    texts[row[0]] = (row[1], row[2])
                }
            }
        }
        return texts
    }

    /// The ids of memories never used since they were captured after `date`, oldest first (new captures to link).
    public func unusedMemoryIDs(createdAfter date: Date) throws -> [String] {
        try read { db in
            try String.fetchAll(db, Memory.select(Memory.Columns.id)
                .filter(Memory.Columns.useCount == 0 && Memory.Columns.created > date)
                .order(Memory.Columns.created, Memory.Columns.id))
        }
    }

    /// The id of every memory, in id order.
    public func memoryIDs() throws -> [String] {
        try read { db in try String.fetchAll(db, Memory.select(Memory.Columns.id).order(Memory.Columns.id)) }
    }

    /// Every memory, oldest first.
    public func allMemories() throws -> [Memory] {
        try read { db in try Memory.order(Memory.Columns.created, Memory.Columns.id).fetchAll(db) }
    }

    /// The most recently created memories, newest first.
    public func recentMemories(limit: Int) throws -> [Memory] {
        try memoryPage(after: nil, limit: limit).memories
    }

    /// A page of the memories, newest first, after the place `after` that an earlier page gave as its `next`: the
    /// last memory's creation time, as stored, and its id. A page stays right while memories are added, since a new
    /// one is newer than every page already handed out, and when the memory it ended on is forgotten.
    public func memoryPage(after: MemoryPlace?, limit: Int) throws -> (memories: [Memory], next: MemoryPlace?) {
        try read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT *, created AS placeCreated FROM memory
                WHERE ?1 IS NULL OR created < ?1 OR (created = ?1 AND id < ?2)
                ORDER BY created DESC, id DESC LIMIT ?3
                """, arguments: [after?.created, after?.id, limit == .max ? limit : limit + 1])
            let shown = rows.prefix(limit)
            let memories = try shown.map { try Memory(row: $0) }
            let next = rows.count > limit ? shown.last.flatMap { row in
                (row["placeCreated"] as String?).map { MemoryPlace(created: $0, id: row["id"]) }
            } : nil
            return (memories, next)
        }
    }

    /// How many memories are stored.
    public func memoryCount() throws -> Int {
        try read { db in try Memory.fetchCount(db) }
    }

    /// Strengthens a memory because it was opened, activated or reviewed; logs the use.
    @discardableResult
    public func reinforce(id: String, action: Activity.Action, source: String? = nil) throws -> Memory {
        let now = clock()
        return try write("record the use of the memory") { db in
            guard var m = try Memory.fetchOne(db, key: id) else {
                throw EngramError.notFound("no memory with id '\(id)'")
            }
            if action.reinforces {
                m.useCount += 1
                m.lastReinforced = now
                try m.update(db)
                try Store.enqueue(db, .memory, id, at: now)
                try SyncLog.record(db, at: now) { r in
                    try r.count(.memory, id, "uses", by: 1)
                    try r.set(.memory, m, only: ["lastReinforced"])
                }
            }
            try Store.log(db, action, memoryID: id, source: source, at: now)
            return m
        }
    }

    /// Adds and removes tags; returns the memory as stored.
    @discardableResult
    public func retag(id: String, add: [String] = [], remove: [String] = []) throws -> Memory {
        let now = clock()
        return try write("change the tags") { db in
            guard var m = try Memory.fetchOne(db, key: id) else { throw EngramError.notFound("no memory with id '\(id)'") }
            let drop = Set(TextInput.normalizeTags(remove))
            let before = m.tags
            m.tags = TextInput.normalizeTags(m.tags.filter { !drop.contains($0) } + add)
            m.updated = now
            try m.update(db)
            try Store.enqueue(db, .memory, id, at: now)
            try SyncLog.record(db, at: now) { r in
                // Every tag asked for is an add (even one already on: an add concurrent with a peer's remove wins).
                let added = Set(TextInput.normalizeTags(add))
                try r.tags(id, add: m.tags.filter { added.contains($0) || !before.contains($0) }, remove: before.filter { !m.tags.contains($0) })
                try r.set(.memory, m, only: ["updated"])
            }
            try Store.log(db, .tag, memoryID: id, at: now)
            return m
        }
    }

    /// Replaces a memory's text (an edit in place): checked as a capture is, written through the outbox so the
    /// index and the vectors follow, and to the sync log so other devices get it (a concurrent edit elsewhere is kept
    /// as a revision, never lost). Returns the memory as stored.
    @discardableResult
    public func edit(id: String, content: String) throws -> Memory {
        guard !content.allSatisfy({ $0.isWhitespace }) else {
            throw EngramError.invalidInput("the text is empty; to remove the memory, forget it")
        }
        guard content.utf8.count <= Store.maxContentBytes else {
            throw EngramError.invalidInput("the text is \(content.utf8.count / 1024) KiB; Engram keeps notes up to \(Store.maxContentBytes / 1024 / 1024) MiB")
        }
        try TextInput.requireNoNUL(content, what: "the text")
        let now = clock()
        return try write("save the edit") { db in
            guard var m = try Memory.fetchOne(db, key: id) else { throw EngramError.notFound("no memory with id '\(id)'") }
            guard m.content != content else { return m }
            m.content = content
            m.updated = now
            try m.update(db)
            // The old text's vector no longer says what the memory means: the meaning pass embeds it again.
            try db.execute(sql: "DELETE FROM vector WHERE kind = 'memory' AND itemID = ?", arguments: [id])
            try Store.enqueue(db, .memory, id, at: now)
            try SyncLog.record(db, at: now) { r in try r.set(.memory, m, only: ["content", "updated"]) }
            return m
        }
    }

    /// Pins or unpins a memory: pinned memories never fade from search.
    @discardableResult
    public func setPinned(id: String, _ pinned: Bool) throws -> Memory {
        let now = clock()
        return try write("pin the memory") { db in
            guard var m = try Memory.fetchOne(db, key: id) else { throw EngramError.notFound("no memory with id '\(id)'") }
            m.pinned = pinned
            m.updated = now
            if pinned { m.lastReinforced = now }
            try m.update(db)
            try Store.enqueue(db, .memory, id, at: now)
            try SyncLog.record(db, at: now) { r in try r.set(.memory, m, only: ["pinned", "updated", "lastReinforced"]) }
            try Store.log(db, .pin, memoryID: id, at: now)
            return m
        }
    }

    /// Removes a memory for good: its row, links, activity and request rows; the index follows through the outbox.
    @discardableResult
    public func forget(id: String) throws -> Memory {
        let now = clock()
        let forgotten = try write("forget the memory") { db in
            guard let m = try Memory.fetchOne(db, key: id) else { throw EngramError.notFound("no memory with id '\(id)'") }
            _ = try m.delete(db)
            try db.execute(sql: "DELETE FROM activity WHERE memoryID = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM request WHERE memoryID = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM vector WHERE kind = 'memory' AND itemID = ?", arguments: [id])
            try Store.enqueue(db, .memory, id, at: now)
            try SyncLog.record(db, at: now) { r in try r.forget(.memory, id) }
            return m
        }
        eraseWAL()
        return forgotten
    }

    /// `date`, or `now` when it is more than a day after `now` (`HybridClock.maxSkewMilliseconds`): an imported date
    /// that far ahead is a typo or a clock gone wrong, and a memory last reinforced in 2999 would never fade. Peers'
    /// operations carrying such dates are refused (`SyncOperation.futureDate`).
    /// With `stored` (the row's date before this import) that is kept instead of now, so importing the same file again
    /// changes nothing.
    static func notAhead(_ date: Date, of now: Date, else stored: Date? = nil) -> Date {
        date.timeIntervalSince(now) * 1000 > Double(HybridClock.maxSkewMilliseconds) ? stored ?? now : date
    }

    /// Inserts or replaces whole memories (import), each with its outbox row, in chunks; `progress` gets (done, total).
    /// Dates more than a day ahead of this clock are taken as now (`notAhead`).
    ///
    /// A memory already stored exactly as given is left alone: no write and no outbox row, so importing the same
    /// file again (or again after an interrupted import) costs a read, not a re-index. For the ids in
    /// `keepingHistoryOf` (lines that gave no dates: hand-written files) a stored memory keeps its created,
    /// updated, last-reinforced dates and use count, so re-importing such a file never resets what use did.
    /// With `link` false (an Engram export, which brings its links) the index adds no automatic links for them.
    /// Returns how many memories were written (new or changed).
    @discardableResult
    public func upsertMemories(_ memories: [Memory], keepingHistoryOf keepHistory: Set<String> = [], chunk: Int = 2000,
                               link: Bool = true, progress: ((Int, Int) -> Void)? = nil) throws -> Int {
        var done = 0
        var written = 0
        // A forgotten id stays forgotten: refuse the import before anything is written.
        let forgotten = try read { db in try SyncLog.forgottenIDs(db, .memory, memories.map(\.id)) }
        if !forgotten.isEmpty { throw SyncLog.forgotten(.memory, forgotten) }
        for start in stride(from: 0, to: memories.count, by: max(1, chunk)) {
            let slice = memories[start..<min(start + chunk, memories.count)]
            let now = clock()
            written += try write("import memories") { db in
                var changed = 0
                // One query for the whole chunk: what is stored already decides what needs writing.
                var stored = Dictionary(try Memory.filter(keys: slice.map(\.id)).fetchAll(db).map { ($0.id, $0) },
                                        uniquingKeysWith: { a, _ in a })
                for var m in slice {
                    try TextInput.requireNoNUL(m.content, what: "memory \(m.id)")
                    let before = stored[m.id]
                    m.created = Store.notAhead(m.created, of: now, else: before?.created)
                    m.updated = Store.notAhead(m.updated, of: now, else: before?.updated)
                    m.lastReinforced = Store.notAhead(m.lastReinforced, of: now, else: before?.lastReinforced)
                    m.tags = TextInput.normalizeTags(m.tags)
                    if let old = before {
                        let keep = keepHistory.contains(m.id)
                        if keep {
                            m.created = old.created
                            m.updated = old.updated
                            m.lastReinforced = old.lastReinforced
                            m.useCount = old.useCount
                        }
                        if Store.sameStoredMemory(old, m) { continue }
                        if keep { m.updated = now }
                    }
                    try Store.upsertRow(db, m)
                    try Store.enqueueRow(db, .memory, m.id, at: now, link: link)
                    try SyncLog.record(db, at: now) { r in
                        try r.setChanged(.memory, old: before, new: m)
                        let old = before?.tags ?? []
                        try r.tags(m.id, add: m.tags.filter { !old.contains($0) }, remove: old.filter { !m.tags.contains($0) })
                        try r.count(.memory, m.id, "uses", by: Double(m.useCount - (before?.useCount ?? 0)))
                    }
                    stored[m.id] = m  // a later line with the same id compares with this one
                    changed += 1
                }
                return changed
            }
            done += slice.count
            progress?(done, memories.count)
        }
        return written
    }

    /// Writes a memory row with one prepared statement: what `Memory.upsert` writes (the same columns and encodings:
    /// tags as GRDB's JSON, dates as GRDB's text), without encoding a record through Codable per row, which was most
    /// of an import's time in the store.
    static func upsertRow(_ db: Database, _ m: Memory) throws {
        let statement = try db.cachedStatement(sql: """
            INSERT INTO memory (id, content, type, tags, context, created, updated, lastReinforced, useCount, pinned, source)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET content = excluded.content, type = excluded.type, tags = excluded.tags,
                context = excluded.context, created = excluded.created, updated = excluded.updated,
                lastReinforced = excluded.lastReinforced, useCount = excluded.useCount, pinned = excluded.pinned,
                source = excluded.source
            """)
        let tags = String(decoding: try Memory.databaseJSONEncoder(for: "tags").encode(m.tags), as: UTF8.self)
        try statement.execute(arguments: [m.id, m.content, m.type.rawValue, tags, m.context, m.created, m.updated,
                                          m.lastReinforced, m.useCount, m.pinned, m.source])
    }

    /// Appends an outbox row with one prepared statement (what `enqueue` writes).
    static func enqueueRow(_ db: Database, _ kind: OutboxEntry.Kind, _ itemID: String, at: Date, link: Bool) throws {
        let statement = try db.cachedStatement(sql: "INSERT INTO outbox (kind, itemID, at, link) VALUES (?, ?, ?, ?)")
        try statement.execute(arguments: [kind.rawValue, itemID, at, link])
    }

    /// Whether storing `new` over `old` would change nothing (the store keeps dates to the millisecond).
    static func sameStoredMemory(_ old: Memory, _ new: Memory) -> Bool {
        func same(_ a: Date, _ b: Date) -> Bool { abs(a.timeIntervalSince(b)) < 0.001 }
        return old.id == new.id && old.content == new.content && old.type == new.type && old.tags == new.tags
            && old.context == new.context && old.useCount == new.useCount && old.pinned == new.pinned
            && old.source == new.source && same(old.created, new.created) && same(old.updated, new.updated)
            && same(old.lastReinforced, new.lastReinforced)
    }
}

/// Where a page of memories ends, in their newest-first order: the last one's creation time as the store holds it
/// (compared as stored, never re-encoded) and its id.
public struct MemoryPlace: Sendable, Equatable {
    public var created: String
    public var id: String

    public init(created: String, id: String) {
        self.created = created
        self.id = id
    }
}
