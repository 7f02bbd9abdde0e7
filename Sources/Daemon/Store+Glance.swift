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
            // Consecutive days with a capture, ending today, or yesterday when nothing was captured today yet.
            var day = today > 0 ? startOfToday : calendar.date(byAdding: .day, value: -1, to: startOfToday)!
            var streak = 0
            while let next = calendar.date(byAdding: .day, value: 1, to: day),
                  try Memory.filter(created >= day && created < next).limit(1).fetchCount(db) > 0 {
                streak += 1
                guard let previous = calendar.date(byAdding: .day, value: -1, to: day) else { break }
                day = previous
            }
            return (total, today, streak)
        }
    }
}
