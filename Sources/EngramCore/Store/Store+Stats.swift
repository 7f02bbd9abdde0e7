import Foundation
import GRDB

/// Counts that describe a collection at a moment.
public struct MemoryStats: Codable, Sendable, Equatable {
    public var total = 0
    public var today = 0
    public var thisWeek = 0
    public var topTag: String?
    public var topTagCount = 0
    public var connections = 0
    /// Consecutive days with at least one capture, ending today (or yesterday if nothing yet today).
    public var streakDays = 0
    public var perType: [String: Int] = [:]
    /// Memories that will fade from search within 7 days.
    public var expiringSoon = 0
    /// Memories already faded from search (still in the store).
    public var expired = 0
    public var pinned = 0
    public var curricula = 0
    public var topics = 0
    public var topicsDone = 0
}

extension Store {
    /// Computes stats at `now`, in the local time zone, optionally for one context.
    public func stats(now: Date, decay: DecayModel, context: String? = nil, timeZone: TimeZone = .current) throws -> MemoryStats {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = timeZone
        let startOfDay = cal.startOfDay(for: now)
        let weekAgo = cal.date(byAdding: .day, value: -6, to: startOfDay)!
        return try read { db in
            var s = MemoryStats()
            let filter = context.map { ["context = ?", $0] }
            let whereSQL = filter.map { "WHERE \($0[0])" } ?? ""
            let args: StatementArguments = filter.map { [$0[1]] } ?? []
            let memories = try Memory.fetchAll(db, sql: "SELECT * FROM memory \(whereSQL)", arguments: args)
            s.total = memories.count
            var tagCounts: [String: Int] = [:]
            var days = Set<Date>()
            for m in memories {
                if m.created >= startOfDay { s.today += 1 }
                if m.created >= weekAgo { s.thisWeek += 1 }
                s.perType[m.type.rawValue, default: 0] += 1
                for t in m.tags { tagCounts[t, default: 0] += 1 }
                if m.pinned { s.pinned += 1 }
                days.insert(cal.startOfDay(for: m.created))
                if let exp = decay.expiry(of: m) {
                    if exp <= now { s.expired += 1 } else if exp.timeIntervalSince(now) <= 7 * 86_400 { s.expiringSoon += 1 }
                }
            }
            if let top = tagCounts.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }) {
                s.topTag = top.key
                s.topTagCount = top.value
            }
            var day = days.contains(startOfDay) ? startOfDay : cal.date(byAdding: .day, value: -1, to: startOfDay)!
            while days.contains(day) {
                s.streakDays += 1
                day = cal.date(byAdding: .day, value: -1, to: day)!
            }
            s.connections = try Int.fetchOne(db, sql: "SELECT count(*) FROM link") ?? 0
            s.curricula = try Curriculum.fetchCount(db)
            s.topics = try Topic.fetchCount(db)
            s.topicsDone = try Topic.filter(Topic.Columns.done == true).fetchCount(db)
            return s
        }
    }
}
