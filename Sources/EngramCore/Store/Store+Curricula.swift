import Foundation
import GRDB

extension Store {
    /// Inserts or replaces a curriculum and its topics (topics not listed are removed), with outbox rows.
    public func upsertCurriculum(_ curriculum: Curriculum, topics: [Topic]) throws {
        var curriculum = curriculum, topics = topics
        guard Identifier.isValid(curriculum.id) else {
            throw EngramError.invalidInput("curriculum id '\(curriculum.id)' must be 1–64 letters, digits, '-', '_' or '.'")
        }
        for t in topics where !Identifier.isValid(t.id) {
            throw EngramError.invalidInput("topic id '\(t.id)' must be 1–64 letters, digits, '-', '_' or '.'")
        }
        let now = clock()
        try write("save the curriculum") { db in
            let oldCurriculum = try Curriculum.fetchOne(db, key: curriculum.id)
            let oldTopics = Dictionary(try Topic.fetchAll(db, keys: topics.map(\.id)).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            // Dates more than a day ahead: the stored ones (so importing the file again changes nothing), else now.
            curriculum.created = Store.notAhead(curriculum.created, of: now, else: oldCurriculum?.created)
            curriculum.updated = Store.notAhead(curriculum.updated, of: now, else: oldCurriculum?.updated)
            for i in topics.indices {
                topics[i].created = Store.notAhead(topics[i].created, of: now, else: oldTopics[topics[i].id]?.created)
                topics[i].updated = Store.notAhead(topics[i].updated, of: now, else: oldTopics[topics[i].id]?.updated)
            }
            try curriculum.upsert(db)
            try Store.enqueue(db, .curriculum, curriculum.id, at: now)
            let keep = Set(topics.map(\.id))
            let old = try String.fetchAll(db, sql: "SELECT id FROM topic WHERE curriculumID = ?", arguments: [curriculum.id])
            for id in old where !keep.contains(id) {
                try db.execute(sql: "DELETE FROM topic WHERE id = ?", arguments: [id])
                try Store.enqueue(db, .topic, id, at: now)
            }
            for t in topics {
                if let owner = try String.fetchOne(db, sql: "SELECT curriculumID FROM topic WHERE id = ?", arguments: [t.id]), owner != curriculum.id {
                    throw EngramError.invalidInput("topic id '\(t.id)' already belongs to curriculum '\(owner)'")
                }
                try t.upsert(db)
                try Store.enqueue(db, .topic, t.id, at: now)
            }
            try SyncLog.record(db, at: now) { r in
                try r.setChanged(.curriculum, old: oldCurriculum, new: curriculum)
                // A topic taken out of its curriculum leaves it (its curriculum becomes none) rather than being
                // forgotten: a tombstone would keep it from ever coming back with the same id.
                for id in old where !keep.contains(id) { try r.emit(.set, .topic, id, f: ["curriculumID": .null]) }
                for t in topics { try r.setChanged(.topic, old: oldTopics[t.id], new: t) }
            }
        }
    }

    /// Every curriculum, by title.
    public func curricula() throws -> [Curriculum] {
        try read { db in try Curriculum.order(Curriculum.Columns.title).fetchAll(db) }
    }

    /// The curriculum with `id`, or nil.
    public func curriculum(id: String) throws -> Curriculum? {
        try read { db in try Curriculum.fetchOne(db, key: id) }
    }

    /// The topics of a curriculum, in order.
    public func topics(of curriculumID: String) throws -> [Topic] {
        try read { db in
            try Topic.filter(Topic.Columns.curriculumID == curriculumID).order(Topic.Columns.position).fetchAll(db)
        }
    }

    /// The topic with `id`, or nil.
    public func topic(id: String) throws -> Topic? {
        try read { db in try Topic.fetchOne(db, key: id) }
    }

    /// Every topic, by curriculum and position.
    public func allTopics() throws -> [Topic] {
        try read { db in try Topic.order(Topic.Columns.curriculumID, Topic.Columns.position).fetchAll(db) }
    }

    /// Marks a topic done or not done.
    public func setTopicDone(id: String, _ done: Bool) throws {
        let now = clock()
        try write("update the topic") { db in
            guard var t = try Topic.fetchOne(db, key: id) else { throw EngramError.notFound("no topic with id '\(id)'") }
            t.done = done
            t.updated = now
            try t.update(db)
            try Store.enqueue(db, .topic, id, at: now)
            try SyncLog.record(db, at: now) { r in try r.set(.topic, t, only: ["done", "updated"]) }
        }
    }
}
