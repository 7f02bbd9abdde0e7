/// The streak rule shared by stats, the daemon's glance and study analytics.
public enum Streak {
    /// Consecutive days on which `isActive` holds, ending `today` — or yesterday while today has nothing yet.
    ///
    /// Days are whatever the caller counts in (local day numbers, a calendar's day starts); `dayBefore` steps
    /// back one, and nil ends the count.
    public static func days<Day>(endingAt today: Day, dayBefore: (Day) throws -> Day?,
                                 isActive: (Day) throws -> Bool) rethrows -> Int {
        var day = try isActive(today) ? today : dayBefore(today)
        var streak = 0
        while let current = day, try isActive(current) {
            streak += 1
            day = try dayBefore(current)
        }
        return streak
    }
}
