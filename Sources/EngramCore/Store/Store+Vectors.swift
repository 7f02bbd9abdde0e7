import Foundation
import GRDB

/// One item's sentence-embedding vector as stored: int8 components and their scale (see `Vector`).
public struct StoredVector: Sendable, Equatable {
    public var kind: OutboxEntry.Kind
    public var itemID: String
    /// A hash of the text the vector was made from, and of the model: unchanged text is never embedded twice.
    public var textHash: String
    public var data: Data

    public init(kind: OutboxEntry.Kind, itemID: String, textHash: String, data: Data) {
        self.kind = kind
        self.itemID = itemID
        self.textHash = textHash
        self.data = data
    }
}

extension Store {
    /// The setting holding the last outbox sequence whose items have vectors; absent while meaning search is off.
    static let vectorMarkKey = "vectors.embedded_seq"
    /// The setting naming the model the vectors were made with.
    static let vectorModelKey = "vectors.model"
    /// The setting holding the version stamped on the last saved vectors (migration v7).
    static let vectorVersionKey = "vectors.version"
    /// The setting counting deleted vectors (kept by a trigger, migration v7).
    static let vectorDeletionsKey = "vectors.deletions"

    static func vectorMark(_ db: Database) throws -> Int64? {
        try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [vectorMarkKey]).flatMap { Int64($0) }
    }

    /// The last outbox sequence whose items have vectors, or nil while meaning search is off.
    public func vectorMark() throws -> Int64? {
        try read { db in try Store.vectorMark(db) }
    }

    /// The model the stored vectors were made with, or nil if none were made.
    public func vectorModel() throws -> String? {
        try read { db in
            try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [Store.vectorModelKey])
        }
    }

    /// Saves vectors, deletes others and moves the vectors' mark to `seq`, in one transaction: a crash keeps all
    /// of it or none (then the next pass embeds again only what has no vector of the same text).
    public func saveVectors(_ vectors: [StoredVector], deleting gone: [(OutboxEntry.Kind, String)], through seq: Int64,
                            model: String, links: [(from: String, to: String, weight: Double)] = []) throws {
        let now = clock()
        try write("save meaning vectors") { db in
            // Automatic links found by meaning, saved with the vectors that found them (ends gone meanwhile are skipped).
            for link in links where try Store.memoryExists(db, link.from) && Store.memoryExists(db, link.to) {
                try Store.link(db, link.from, link.to, origin: .auto, weight: link.weight, at: now)
            }
            let version = try Store.vectorState(db).version + 1
            for v in vectors {
                try db.execute(sql: """
                    INSERT INTO vector(kind, itemID, textHash, data, version) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT(kind, itemID) DO UPDATE SET textHash = excluded.textHash, data = excluded.data,
                        version = excluded.version
                    """, arguments: [v.kind.rawValue, v.itemID, v.textHash, v.data, version])
            }
            if !vectors.isEmpty {
                try db.execute(sql: "INSERT INTO setting(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                               arguments: [Store.vectorVersionKey, String(version)])
            }
            for (kind, id) in gone {
                try db.execute(sql: "DELETE FROM vector WHERE kind = ? AND itemID = ?", arguments: [kind.rawValue, id])
            }
            for (key, value) in [(Store.vectorMarkKey, String(seq)), (Store.vectorModelKey, model)] {
                try db.execute(sql: "INSERT INTO setting(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                               arguments: [key, value])
            }
        }
    }

    /// Meaning search is off: the outbox is no longer held for vectors (they stay, and are checked when it is on again).
    public func releaseVectorMark() throws {
        try write("stop holding the outbox for vectors") { db in
            try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [Store.vectorMarkKey])
        }
    }

    /// Deletes every vector (a different model makes them useless), with their mark and model; empties freed pages.
    public func deleteAllVectors() throws {
        try write("delete meaning vectors") { db in
            try db.execute(sql: "DELETE FROM vector")
            try db.execute(sql: "DELETE FROM setting WHERE key IN (?, ?)", arguments: [Store.vectorMarkKey, Store.vectorModelKey])
        }
    }

    /// The text hash of every stored vector, by kind and id (to reconcile with the store).
    public func vectorHashes() throws -> [String: String] {
        try read { db in
            var out: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT kind, itemID, textHash FROM vector") {
                out[(row[0] as String) + ":" + (row[1] as String)] = row[2]
            }
            return out
        }
    }

    /// Where the stored vectors stand: the version of the last save, and how many deletes there have been.
    public struct VectorState: Sendable, Equatable {
        public var version: Int64
        public var deletions: Int64
    }

    static func vectorState(_ db: Database) throws -> VectorState {
        var state = VectorState(version: 0, deletions: 0)
        for row in try Row.fetchAll(db, sql: "SELECT key, value FROM setting WHERE key IN (?, ?)",
                                    arguments: [vectorVersionKey, vectorDeletionsKey]) {
            let value = Int64(row[1] as String) ?? 0
            if row[0] as String == vectorVersionKey { state.version = value } else { state.deletions = value }
        }
        return state
    }

    /// Where the stored vectors stand (see `vectors(changedAfter:)`).
    public func vectorState() throws -> VectorState {
        try read { db in try Store.vectorState(db) }
    }

    /// The vectors saved after `version`, with the state they bring a reader to (read together, so nothing saved
    /// between the two is missed).
    public func vectors(changedAfter version: Int64) throws -> (vectors: [StoredVector], state: VectorState) {
        try read { db in
            let state = try Store.vectorState(db)
            let rows = try Row.fetchAll(db, sql: "SELECT kind, itemID, textHash, data FROM vector WHERE version > ?",
                                        arguments: [version])
            return (rows.compactMap(Store.storedVector), state)
        }
    }

    /// Every stored vector, with the state it reflects.
    public func allVectorsWithState() throws -> (vectors: [StoredVector], state: VectorState) {
        try read { db in
            (try Row.fetchAll(db, sql: "SELECT kind, itemID, textHash, data FROM vector").compactMap(Store.storedVector),
             try Store.vectorState(db))
        }
    }

    private static func storedVector(_ row: Row) -> StoredVector? {
        guard let kind = OutboxEntry.Kind(rawValue: row[0]) else { return nil }
        return StoredVector(kind: kind, itemID: row[1], textHash: row[2], data: row[3])
    }

    /// Every stored vector.
    public func allVectors() throws -> [StoredVector] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT kind, itemID, textHash, data FROM vector").compactMap { row in
                guard let kind = OutboxEntry.Kind(rawValue: row[0]) else { return nil }
                return StoredVector(kind: kind, itemID: row[1], textHash: row[2], data: row[3])
            }
        }
    }

    /// How many memories, curricula and topics the store holds (each should have a vector).
    public func itemCount() throws -> Int {
        try read { db in
            try Int.fetchOne(db, sql: "SELECT (SELECT count(*) FROM memory) + (SELECT count(*) FROM curriculum) + (SELECT count(*) FROM topic)") ?? 0
        }
    }

    /// One item's stored vector, or nil.
    public func vector(_ kind: OutboxEntry.Kind, _ id: String) throws -> StoredVector? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT textHash, data FROM vector WHERE kind = ? AND itemID = ?", arguments: [kind.rawValue, id])
                .map { StoredVector(kind: kind, itemID: id, textHash: $0[0], data: $0[1]) }
        }
    }

    /// How many vectors are stored, by kind.
    public func vectorCount() throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM vector") ?? 0 }
    }

    /// Whether `kind:id` has a vector (tests and status).
    public func hasVector(_ kind: OutboxEntry.Kind, _ id: String) throws -> Bool {
        try read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM vector WHERE kind = ? AND itemID = ?", arguments: [kind.rawValue, id]) ?? false
        }
    }
}
