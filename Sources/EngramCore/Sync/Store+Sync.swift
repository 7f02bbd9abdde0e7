import Foundation
import GRDB

/// What `engram sync status` shows.
public struct SyncStatus: Sendable {
    /// A peer device seen in the sync folder.
    public struct Peer: Sendable, Equatable {
        public var device: String
        public var received: Int
        public var firstSeen: Date
        public var lastSeen: Date
    }

    /// A message recorded while syncing.
    public struct Message: Sendable, Equatable {
        public var at: Date
        public var device: String?
        public var text: String
    }

    /// This device's id, or nil while sync is off.
    public var device: String?
    /// Operations recorded here and not yet written to the sync folder.
    public var pending: Int
    /// Lines kept for later: from a newer Engram, or dated more than `HybridClock.maxSkewMilliseconds` ahead of
    /// this device's clock (held until then).
    public var parked: Int
    public var peers: [Peer]
    /// The most recent messages, newest first.
    public var messages: [Message]
}

/// A value a field held before another write won, for `engram show --history`.
public struct SyncRevision: Sendable, Equatable {
    public var field: String
    /// The value as the store keeps it (text, number or nil).
    public var value: SyncValue
    /// The clock reading and device of the write, `<hlc>@<device>`.
    public var stamp: String

    /// When the write was made (its clock's wall time).
    public var date: Date {
        let wall = HybridClock(String(stamp.prefix { $0 != "@" }))?.wall ?? 0
        return Date(timeIntervalSince1970: Double(wall) / 1000)
    }

    /// The device that made the write.
    public var device: String { String(stamp.split(separator: "@").last ?? "") }

    /// The value as text.
    public var text: String {
        switch value {
        case .null: return "—"
        case .integer(let i): return String(i)
        case .real(let d): return String(d)
        case .text(let t): return t
        }
    }
}

extension Store {
    /// This device's sync id, or nil while sync is off.
    public func syncDevice() throws -> String? {
        try read { db in try SyncLog.device(db) }
    }

    /// The state of sync on this device.
    public func syncStatus(messages limit: Int = 20) throws -> SyncStatus {
        try read { db in
            SyncStatus(
                device: try SyncLog.device(db),
                pending: try Int.fetchOne(db, sql: "SELECT count(*) FROM syncPending") ?? 0,
                parked: try Int.fetchOne(db, sql: "SELECT count(*) FROM syncParked") ?? 0,
                peers: try Row.fetchAll(db, sql: "SELECT device, received, firstSeen, lastSeen FROM syncPeer ORDER BY device").map {
                    SyncStatus.Peer(device: $0[0], received: $0[1], firstSeen: $0[2], lastSeen: $0[3])
                },
                messages: try Row.fetchAll(db, sql: "SELECT at, device, message FROM syncMessage ORDER BY seq DESC LIMIT ?", arguments: [limit]).map {
                    SyncStatus.Message(at: $0[0], device: $0[1], text: $0[2])
                })
        }
    }

    /// The values of an item's fields that other writes replaced, oldest write first.
    public func revisions(of entity: SyncEntity, id: String) throws -> [SyncRevision] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT field, value, stamp FROM syncRevision WHERE entity = ? AND item = ? ORDER BY stamp, field",
                             arguments: [entity.rawValue, id]).map {
                SyncRevision(field: $0["field"], value: SyncValue($0["value"] as DatabaseValue), stamp: $0["stamp"])
            }
        }
    }

    /// A canonical text of everything sync carries (rows, tags, links, counters as summed, revisions,
    /// tombstones), in a fixed order: two stores holding the same operations give the same text.
    public func syncCanonicalText() throws -> String {
        try read { db in
            var out = ""
            func dump(_ title: String, _ sql: String) throws {
                out += "# \(title)\n"
                for row in try Row.fetchAll(db, sql: sql) {
                    out += row.databaseValues.map { "\($0)" }.joined(separator: "\t") + "\n"
                }
            }
            try dump("memory", "SELECT id, content, type, context, created, updated, lastReinforced, useCount, pinned, source FROM memory ORDER BY id")
            out += "# tags\n"
            for row in try Row.fetchAll(db, sql: "SELECT id, tags FROM memory ORDER BY id") {
                let tags = (try? JSONDecoder().decode([String].self, from: Data((row[1] as String).utf8))) ?? []
                out += (row[0] as String) + "\t" + tags.sorted().joined(separator: ",") + "\n"
            }
            try dump("link", "SELECT fromID, toID, origin, weight, created FROM link ORDER BY fromID, toID")
            try dump("curriculum", "SELECT id, title, description, created, updated, source FROM curriculum ORDER BY id")
            try dump("topic", "SELECT id, curriculumID, position, title, notes, flagged, done, created, updated FROM topic ORDER BY id")
            try dump("session", """
                SELECT id, kind, title, curriculumID, topicID, state, started, resumed, printf('%.3f', accumulatedSeconds), ended,
                       progressDone, progressTotal, updated FROM session ORDER BY id
                """)
            try dump("revision", "SELECT entity, item, field, stamp, value FROM syncRevision ORDER BY entity, item, field, stamp")
            try dump("tombstone", "SELECT entity, item FROM syncTombstone ORDER BY entity, item")
            return out
        }
    }

    /// A short hash of `syncCanonicalText` (FNV-1a, 64 bits, hex).
    public func syncDigest() throws -> String {
        let hex = String(Identifier.fnv1a(try syncCanonicalText().utf8), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
