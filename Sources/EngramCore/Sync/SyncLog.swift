import Foundation
import GRDB
import Logging

/// This device's change log: operations recorded in the same transaction as the change they describe.
///
/// Operations are recorded only once sync is enabled (`enable`, which the first `engram sync` does when
/// `[sync] folder` is set), and enabling seeds operations describing everything already stored. So a person
/// who never syncs pays one indexed settings lookup per write and nothing else, and a store that starts to sync
/// late loses nothing: its whole state enters the log at that moment, with fresh clock readings.
///
/// A local change is applied to the merge state like a peer's (and its row projected from it), so the store
/// shows exactly what the merge decides even when a peer's clock ran ahead of ours.
public enum SyncLog {
    /// The setting holding this device's id; present exactly when sync is enabled.
    static let deviceKey = "sync.device"
    /// The setting holding the last clock reading issued or received.
    static let clockKey = "sync.clock"
    /// Set when a tombstone arrived, so the exporter rewrites this device's log without the forgotten item.
    static let compactKey = "sync.compact"

    /// This device's id when sync is enabled, else nil.
    static func device(_ db: Database) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM setting WHERE key = ?"), arguments: [deviceKey])
    }

    static func loadClock(_ db: Database) throws -> HybridClock {
        try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM setting WHERE key = ?"), arguments: [clockKey])
            .flatMap(HybridClock.init) ?? .zero
    }

    static func saveClock(_ db: Database, _ clock: HybridClock) throws {
        try db.cachedStatement(sql: "INSERT INTO setting(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value")
            .execute(arguments: [clockKey, clock.description])
    }

    /// Records operations made by `body` when sync is enabled (nothing otherwise), applying and projecting them.
    static func record(_ db: Database, at now: Date, seeding: Bool = false, _ body: (inout Recorder) throws -> Void) throws {
        guard let device = try device(db) else { return }
        var r = Recorder(db: db, device: device, clock: try loadClock(db), now: HybridClock.milliseconds(now))
        try body(&r)
        try saveClock(db, r.clock)
        if !seeding { try SyncProjection.project(db, r.touched, at: now, linkNew: true) }
    }

    /// Makes, logs and applies this device's operations within one transaction.
    struct Recorder {
        let db: Database
        let device: String
        var clock: HybridClock
        let now: Int64
        var touched = SyncMerge.Touched()

        mutating func emit(_ op: SyncOperation.Kind, _ e: SyncEntity, _ item: String, f: [String: SyncValue]? = nil,
                           tag: String? = nil, add: Bool? = nil, other: String? = nil, origin: String? = nil,
                           weight: Double? = nil, counter: String? = nil, total: Double? = nil) throws {
            // A forgotten item stays forgotten: nothing about it (its text least of all) enters the log again.
            if op != .forget {
                if try SyncMerge.isBuried(db, e, item) { throw SyncLog.forgotten(e, [item]) }
                if op == .link, let other, try SyncMerge.isBuried(db, .memory, other) { return }  // no link to it either
            }
            clock = clock.tick(now: now)
            let operation = SyncOperation(hlc: clock, dev: device, op: op, e: e, item: item, f: f, tag: tag, add: add,
                                          other: other, origin: origin, weight: weight, counter: counter, total: total)
            try db.cachedStatement(sql: "INSERT INTO syncPending(line, op, entity, item, other) VALUES (?, ?, ?, ?, ?)")
                .execute(arguments: [try operation.line(), op.rawValue, e.rawValue, item, other])
            try SyncMerge.apply(db, operation, into: &touched)
        }

        /// Sets the synced fields of `record` (all of them, or those in `only`).
        mutating func set<R: EncodableRecord & Identifiable>(_ e: SyncEntity, _ record: R, only: [String]? = nil) throws where R.ID == String {
            let all = try record.databaseDictionary
            let names = only ?? Array(e.syncedFields)
            var f: [String: SyncValue] = [:]
            for name in names where e.syncedFields.contains(name) { f[name] = SyncValue(all[name] ?? .null) }
            try emit(.set, e, record.id, f: f)
        }

        /// Sets the synced fields of `new` that differ from `old` (all of them when there is no `old`), so an edit
        /// of one field does not make revisions of the others.
        mutating func setChanged<R: EncodableRecord & Identifiable>(_ e: SyncEntity, old: R?, new: R) throws where R.ID == String {
            guard let old else { return try set(e, new) }
            let was = try old.databaseDictionary, now = try new.databaseDictionary
            let changed = e.syncedFields.filter { was[$0] != now[$0] }.sorted()
            if !changed.isEmpty { try set(e, new, only: changed) }
        }

        /// Adds `delta` to this device's running total of a counter.
        mutating func count(_ e: SyncEntity, _ item: String, _ counter: String, by delta: Double) throws {
            guard delta > 0 else { return }  // totals only grow: a merge keeps each device's greatest
            let mine = try Double.fetchOne(db.cachedStatement(sql: "SELECT total FROM syncCounter WHERE entity = ? AND item = ? AND counter = ? AND device = ?"),
                                           arguments: [e.rawValue, item, counter, device]) ?? 0
            try emit(.count, e, item, counter: counter, total: mine + delta)
        }

        /// Adds or removes tags of a memory.
        mutating func tags(_ item: String, add: [String] = [], remove: [String] = []) throws {
            for t in remove { try emit(.tag, .memory, item, tag: t, add: false) }
            for t in add { try emit(.tag, .memory, item, tag: t, add: true) }
        }

        /// Adds or removes the link between two memories.
        mutating func link(_ a: String, _ b: String, add: Bool, origin: LinkOrigin = .auto, weight: Double = 0, created: Date? = nil) throws {
            let f = created.map { ["created": SyncValue($0.databaseValue)] }
            try emit(.link, .memory, a, f: f, add: add, other: b, origin: add ? origin.rawValue : nil, weight: add ? weight : nil)
        }

        /// Sets a session's synced fields and adds the seconds it ran here since `secondsBefore`.
        mutating func session(_ s: Session, secondsBefore: Double) throws {
            try set(.session, s)
            try count(.session, s.id, "seconds", by: s.accumulatedSeconds - secondsBefore)
        }

        /// Forgets an item.
        mutating func forget(_ e: SyncEntity, _ item: String) throws { try emit(.forget, e, item) }
    }

    /// The error for a write to items that were forgotten (here or on a synced device).
    static func forgotten(_ e: SyncEntity, _ items: [String]) -> EngramError {
        let list = items.prefix(5).joined(separator: ", ") + (items.count > 5 ? " and \(items.count - 5) more" : "")
        return .invalidInput("\(e.rawValue) \(list) \(items.count == 1 ? "was" : "were") forgotten (here or on a synced device) and stay\(items.count == 1 ? "s" : "") forgotten; nothing was saved. To keep the text, store it as a new \(e.rawValue) (without its old id).")
    }

    /// The ids among `ids` of `e` that were forgotten.
    static func forgottenIDs(_ db: Database, _ e: SyncEntity, _ ids: [String]) throws -> [String] {
        try ids.filter { try SyncMerge.isBuried(db, e, $0) }
    }

    /// Turns sync on for this store (once): makes the device id and seeds operations for everything stored.
    /// Returns the device id.
    @discardableResult
    static func enable(_ db: Database, at now: Date) throws -> String {
        if let device = try device(db) { return device }
        let device = DeviceID.make()
        try db.execute(sql: "INSERT INTO setting(key, value) VALUES (?, ?)", arguments: [deviceKey, device])
        try record(db, at: now, seeding: true) { r in
            for c in try Curriculum.fetchAll(db) { try r.set(.curriculum, c) }
            for t in try Topic.fetchAll(db) { try r.set(.topic, t) }
            for m in try Memory.fetchAll(db) {
                try r.set(.memory, m)
                try r.tags(m.id, add: m.tags)
                try r.count(.memory, m.id, "uses", by: Double(m.useCount))
            }
            for l in try MemoryLink.fetchAll(db) {
                try r.link(l.fromID, l.toID, add: true, origin: l.origin, weight: l.weight, created: l.created)
            }
            for s in try Session.fetchAll(db) {
                try r.set(.session, s)
                try r.count(.session, s.id, "seconds", by: s.accumulatedSeconds)
            }
        }
        return device
    }
}

extension SyncLog {
    /// Applies peers' operations, moving this device's clock past theirs (by at most a day); returns warnings.
    static func applyRemote(_ db: Database, _ ops: [SyncOperation], at now: Date) throws -> [String] {
        guard !ops.isEmpty else { return [] }
        var clock = try loadClock(db)
        var touched = SyncMerge.Touched()
        var warnings: [String] = []
        let ms = HybridClock.milliseconds(now)
        for op in ops {
            let received = clock.receive(op.clock, now: ms)
            clock = received.clock
            if received.heldBack {
                warnings.append("device \(op.dev) sent operations dated more than a day in the future (is its clock wrong?); applied, but this device's clock moved at most a day ahead")
            }
            try SyncMerge.apply(db, op, into: &touched)
        }
        try saveClock(db, clock)
        try SyncProjection.project(db, touched, at: now, linkNew: false)
        return warnings
    }

    /// Records a sync message unless the same one is already recorded, and logs it (as a warning when it is a problem).
    static func note(_ db: Database, _ device: String?, _ message: String, at now: Date, problem: Bool = true) throws {
        let seen = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM syncMessage WHERE device IS ? AND message = ?)", arguments: [device, message]) ?? false
        guard !seen else { return }
        try db.execute(sql: "INSERT INTO syncMessage(at, device, message) VALUES (?, ?, ?)", arguments: [now, device, message])
        // Keep the latest 500.
        try db.execute(sql: "DELETE FROM syncMessage WHERE seq <= (SELECT max(seq) FROM syncMessage) - 500")
        if problem { SyncFolder.logger.warning("\(message)") } else { SyncFolder.logger.debug("\(message)") }
    }
}
