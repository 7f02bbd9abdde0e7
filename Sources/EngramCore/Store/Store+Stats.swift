import Foundation
import GRDB

extension Store {
    /// Computes stats at `now`, in the local time zone, optionally for one context.
    ///
    /// Everything is counted by SQLite (tens of thousands of memories in milliseconds); only the memories
    /// whose fading falls within a second of a boundary are decoded, so the decay model decides exactly
    /// as it does for one memory.
    public func stats(now: Date, decay: DecayModel, context: String? = nil, timeZone: TimeZone = .current) throws -> MemoryStats {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = timeZone
        let startOfDay = cal.startOfDay(for: now)
        let weekAgo = cal.date(byAdding: .day, value: 1 - MemoryStats.weekDays, to: startOfDay)!
        return try read { db in
            var s = MemoryStats()
            let scope = context == nil ? "" : "AND m.context = ?"
            let scopeArgs: [(any DatabaseValueConvertible)?] = context.map { [$0] } ?? []

            (s.total, s.today, s.thisWeek) = try Self.captureCounts(db, startOfDay: startOfDay, weekAgo: weekAgo,
                                                                     scope: scope, scopeArgs: scopeArgs)
            s.pinned = try Int.fetchOne(db, sql: "SELECT count(*) FROM memory m WHERE m.pinned \(scope)",
                                        arguments: StatementArguments(scopeArgs)) ?? 0
            for row in try Row.fetchAll(db, sql: "SELECT m.type, count(*) FROM memory m WHERE 1 \(scope) GROUP BY m.type",
                                        arguments: StatementArguments(scopeArgs)) {
                s.perType[row[0]] = row[1]
            }
            // The most used tag; ties go to the tag that sorts first.
            if let top = try Row.fetchOne(db, sql: """
                SELECT t.value, count(*) AS n FROM memory m, json_each(m.tags) t WHERE 1 \(scope)
                GROUP BY t.value ORDER BY n DESC, t.value ASC LIMIT 1
                """, arguments: StatementArguments(scopeArgs)) {
                s.topTag = top[0]
                s.topTagCount = top[1]
            }
            (s.expired, s.expiringSoon) = try Self.fadingCounts(db, now: now, decay: decay, scope: scope, scopeArgs: scopeArgs)
            s.streakDays = try Self.streak(db, startOfDay: startOfDay, calendar: cal, scope: scope, scopeArgs: scopeArgs)
            s.connections = try Int.fetchOne(db, sql: "SELECT count(*) FROM link") ?? 0
            s.curricula = try Curriculum.fetchCount(db)
            s.topics = try Topic.fetchCount(db)
            s.topicsDone = try Topic.filter(Topic.Columns.done == true).fetchCount(db)
            return s
        }
    }

    /// The counts behind the daemon's properties (total, today, streak), by the same queries `stats` counts them with,
    /// without the fading and tag counts a keystroke-rate caller does not need.
    public func glanceCounts(now: Date, timeZone: TimeZone = .current) throws -> (total: Int, today: Int, streakDays: Int) {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = timeZone
        let startOfDay = cal.startOfDay(for: now)
        return try read { db in
            let counts = try Self.captureCounts(db, startOfDay: startOfDay, weekAgo: startOfDay, scope: "", scopeArgs: [])
            return (counts.total, counts.today, try Self.streak(db, startOfDay: startOfDay, calendar: cal, scope: "", scopeArgs: []))
        }
    }

    /// How many memories in scope, and how many created since the start of today and of the week: three counts
    /// SQLite answers from the index on `created` (a few memories of today, not a pass over all of them).
    private static func captureCounts(_ db: Database, startOfDay: Date, weekAgo: Date, scope: String,
                                      scopeArgs: [(any DatabaseValueConvertible)?]) throws -> (total: Int, today: Int, week: Int) {
        func count(since: Date?) throws -> Int {
            let when = since == nil ? "" : "AND m.created >= ?"
            let args: [(any DatabaseValueConvertible)?] = (since.map { [$0] } ?? []) + scopeArgs
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM memory m WHERE 1 \(when) \(scope)", arguments: StatementArguments(args)) ?? 0
        }
        return (try count(since: nil), try count(since: startOfDay), try count(since: weekAgo))
    }

    /// How many unpinned memories have faded by `now`, and how many fade within `MemoryStats.fadingHorizon`.
    ///
    /// A memory's expiry is its last reinforcement plus a span set by its type and (capped) use count, so
    /// each such group has one reinforcement time before which its memories have faded: SQLite counts
    /// against those, and the memories within a second of either boundary are decoded and decided exactly.
    private static func fadingCounts(_ db: Database, now: Date, decay: DecayModel, scope: String,
                                     scopeArgs: [(any DatabaseValueConvertible)?]) throws -> (expired: Int, soon: Int) {
        let soon = MemoryStats.fadingHorizon
        let margin: TimeInterval = 1
        var expired = 0, expiring = 0
        for group in try fadingGroups(db, decay: decay, scope: scope, scopeArgs: scopeArgs) {
            // Faded: lastReinforced + span <= now. Fading soon: now < lastReinforced + span <= now + the horizon.
            let fadedBefore = now.addingTimeInterval(-group.span), soonBefore = now.addingTimeInterval(soon - group.span)
            let sure = try Row.fetchOne(db, sql: """
                SELECT coalesce(sum(m.lastReinforced <= ?), 0), coalesce(sum(m.lastReinforced > ? AND m.lastReinforced <= ?), 0)
                FROM memory m WHERE \(group.sql)
                """, arguments: StatementArguments([fadedBefore.addingTimeInterval(-margin), fadedBefore.addingTimeInterval(margin),
                                                    soonBefore.addingTimeInterval(-margin)] + group.args))!
            expired += sure[0] as Int
            expiring += sure[1] as Int
            let near = try Row.fetchAll(db, sql: """
                SELECT m.lastReinforced, m.useCount FROM memory m
                WHERE ((m.lastReinforced > ? AND m.lastReinforced <= ?) OR (m.lastReinforced > ? AND m.lastReinforced <= ?)) AND \(group.sql)
                """, arguments: StatementArguments([fadedBefore.addingTimeInterval(-margin), fadedBefore.addingTimeInterval(margin),
                                                    soonBefore.addingTimeInterval(-margin), soonBefore.addingTimeInterval(margin)] + group.args))
            for row in near {
                let reinforced: Date = row[0]
                let memory = Memory(id: "", content: "", type: group.type, created: reinforced, lastReinforced: reinforced, useCount: row[1])
                switch decay.fadingState(of: memory, at: now) {
                case .faded: expired += 1
                case .fadingSoon: expiring += 1
                case .inSearch: break
                }
            }
        }
        return (expired, expiring)
    }

    /// Every unpinned memory that has faded from search by `now` (still in the store), oldest first.
    ///
    /// Only the memories reinforced before their group's fading boundary (plus a second) are read, and the
    /// decay model decides each exactly, so a large collection with few faded memories reads few rows.
    public func fadedMemories(at now: Date, decay: DecayModel) throws -> [Memory] {
        try read { db in
            var faded: [Memory] = []
            for group in try Self.fadingGroups(db, decay: decay, scope: "", scopeArgs: []) {
                let candidates = try Memory.fetchAll(db, sql: "SELECT m.* FROM memory m WHERE m.lastReinforced <= ? AND \(group.sql)",
                                                     arguments: StatementArguments([now.addingTimeInterval(1 - group.span)] + group.args))
                faded += candidates.filter { decay.isExpired($0, at: now) }
            }
            return faded.sorted { ($0.created, $0.id) < ($1.created, $1.id) }
        }
    }

    /// The groups of unpinned memories that fade after the same span from their last reinforcement (one type and
    /// capped use count each), with the SQL condition (on `memory m`) and arguments that select a group.
    private static func fadingGroups(_ db: Database, decay: DecayModel, scope: String, scopeArgs: [(any DatabaseValueConvertible)?])
        throws -> [(type: MemoryType, span: TimeInterval, sql: String, args: [(any DatabaseValueConvertible)?])] {
        let cap = max(decay.maxReinforcements, 0)
        let groups = try Row.fetchAll(db, sql: """
            SELECT DISTINCT m.type, min(max(m.useCount, 0), ?) FROM memory m WHERE NOT m.pinned \(scope)
            """, arguments: StatementArguments([cap] + scopeArgs))
        return groups.compactMap { group in
            let typeName: String = group[0]
            let uses: Int = group[1]
            guard let type = MemoryType(rawValue: typeName) else { return nil }
            let epoch = Date(timeIntervalSince1970: 0)
            let probe = Memory(id: "", content: "", type: type, created: epoch, useCount: uses)
            guard let span = decay.expiry(of: probe)?.timeIntervalSince(epoch) else { return nil }
            return (type, span, "NOT m.pinned AND m.type = ? AND min(max(m.useCount, 0), ?) = ? \(scope)", [typeName, cap, uses] + scopeArgs)
        }
    }

    /// Consecutive local days with at least one capture, ending today (or yesterday if nothing yet today).
    private static func streak(_ db: Database, startOfDay: Date, calendar cal: Calendar, scope: String,
                               scopeArgs: [(any DatabaseValueConvertible)?]) throws -> Int {
        func hasCapture(on day: Date) throws -> Bool {
            // Only a day's start names a day (stepping back a day can land elsewhere around a time change).
            guard cal.startOfDay(for: day) == day, let interval = cal.dateInterval(of: .day, for: day) else { return false }
            return try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM memory m WHERE m.created >= ? AND m.created < ? \(scope))",
                                     arguments: StatementArguments([interval.start, interval.end] + scopeArgs)) ?? false
        }
        return try Streak.days(endingAt: startOfDay, dayBefore: { cal.date(byAdding: .day, value: -1, to: $0) },
                               isActive: hasCapture)
    }
}

extension Store {
    /// Every tag on a memory, once each, sorted.
    public func tagNames() throws -> [String] {
        try read { db in try String.fetchAll(db, sql: "SELECT DISTINCT t.value FROM memory m, json_each(m.tags) t ORDER BY 1") }
    }
}
