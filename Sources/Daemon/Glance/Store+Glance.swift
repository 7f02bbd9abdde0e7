import EngramCore
import Foundation
import GRDB

extension Store {
    /// The counts behind the daemon's properties, from a few indexed queries.
    ///
    /// `stats(now:decay:)` decodes every memory (seconds on a collection of 60,000); these use the index
    /// on `created` and give the same total, today and streak.
    func glanceCounts(now: Date, timeZone: TimeZone = .current) throws -> (total: Int, today: Int, streakDays: Int) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let startOfToday = calendar.startOfDay(for: now)
        return try read { db in
            let created = Memory.Columns.created
            let total = try Memory.fetchCount(db)
            let today = try Memory.filter(created >= startOfToday).fetchCount(db)
            let streak = try Streak.days(endingAt: startOfToday, dayBefore: { calendar.date(byAdding: .day, value: -1, to: $0) }) { day in
                guard let next = calendar.date(byAdding: .day, value: 1, to: day) else { return false }
                return try Memory.filter(created >= day && created < next).limit(1).fetchCount(db) > 0
            }
            return (total, today, streak)
        }
    }
}
