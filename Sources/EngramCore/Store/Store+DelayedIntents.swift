import Foundation
import GRDB

extension Store {
    /// Keeps `intent` to run at its due time.
    public func scheduleIntent(_ intent: DelayedIntent) throws {
        try write("schedule the intent") { db in try intent.insert(db) }
    }

    /// Pending intents, soonest first.
    public func pendingIntents() throws -> [DelayedIntent] {
        try read { db in
            try DelayedIntent.filter(DelayedIntent.Columns.state == DelayedIntent.State.pending.rawValue)
                .order(DelayedIntent.Columns.due, DelayedIntent.Columns.id).fetchAll(db)
        }
    }

    /// The delayed intent with `id`, or nil.
    public func delayedIntent(id: String) throws -> DelayedIntent? {
        try read { db in try DelayedIntent.fetchOne(db, key: id) }
    }

    /// Claims the pending intents due at `now` (marking them done first, so two runners never run one twice).
    public func claimDueIntents(now: Date) throws -> [DelayedIntent] {
        try write("claim due intents") { db in
            let due = try DelayedIntent.filter(DelayedIntent.Columns.state == DelayedIntent.State.pending.rawValue)
                .filter(DelayedIntent.Columns.due <= now).order(DelayedIntent.Columns.due, DelayedIntent.Columns.id).fetchAll(db)
            for var d in due {
                d.state = .done
                d.ranAt = now
                try d.update(db)
            }
            return due
        }
    }

    /// Records how a claimed intent went.
    public func finishDelayedIntent(id: String, result: String, failed: Bool, at now: Date) throws {
        try write("record the intent's result") { db in
            guard var d = try DelayedIntent.fetchOne(db, key: id) else { return }
            d.state = failed ? .failed : .done
            d.result = result
            d.ranAt = now
            d.alertCount = 1
            d.lastAlerted = now
            try d.update(db)
        }
    }

    /// Counts a re-alert of a delayed intent's result.
    public func noteRealert(id: String, at now: Date) throws {
        try write("record the re-alert") { db in
            try db.execute(sql: "UPDATE delayedIntent SET alertCount = alertCount + 1, lastAlerted = ? WHERE id = ?", arguments: [now, id])
        }
    }

    /// Marks a delayed intent's alert as seen: no more re-alerts.
    public func acknowledgeDelayedIntent(id: String) throws {
        let now = clock()
        try write("acknowledge the intent") { db in
            try db.execute(sql: "UPDATE delayedIntent SET acknowledged = ? WHERE id = ? AND acknowledged IS NULL", arguments: [now, id])
        }
    }

    /// Cancels a pending intent; returns whether one was pending.
    @discardableResult
    public func cancelDelayedIntent(id: String) throws -> Bool {
        try write("cancel the intent") { db in
            try db.execute(sql: "UPDATE delayedIntent SET state = 'cancelled' WHERE id = ? AND state = 'pending'", arguments: [id])
            return db.changesCount > 0
        }
    }

    /// Ran intents whose alerts are still unacknowledged and due for a re-alert at `now`.
    public func intentsNeedingRealert(now: Date) throws -> [DelayedIntent] {
        try read { db in
            try DelayedIntent.filter(sql: "state IN ('done','failed') AND acknowledged IS NULL AND realertSeconds IS NOT NULL")
                .fetchAll(db).filter { $0.needsRealert(at: now) }
        }
    }

    /// Empties the usage history: the activity log, finished delayed intents and stored suggestions.
    /// Memories, links, curricula and sessions stay.
    public func clearActivity() throws -> Int {
        try write("clear the activity log") { db in
            try db.execute(sql: "DELETE FROM activity")
            let n = db.changesCount
            try db.execute(sql: "DELETE FROM delayedIntent WHERE state <> 'pending'")
            try db.execute(sql: "DELETE FROM setting WHERE key LIKE 'suggest.%'")
            return n
        }
    }
}
