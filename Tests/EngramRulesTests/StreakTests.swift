import EngramRules
import Testing

@Suite struct StreakTests {
    func streak(_ days: Set<Int>, today: Int = 100) -> Int {
        Streak.days(endingAt: today, dayBefore: { $0 - 1 }, isActive: days.contains)
    }

    @Test func countsBackFromTodayUntilAGap() {
        #expect(streak([100, 99, 98, 96]) == 3)
        #expect(streak([100]) == 1)
    }

    @Test func startsYesterdayWhileTodayHasNothingYet() {
        #expect(streak([99, 98]) == 2)
        #expect(streak([98, 97]) == 0)
        #expect(streak([]) == 0)
    }

    @Test func endsWhereTheCalendarHasNoEarlierDay() {
        #expect(Streak.days(endingAt: 2, dayBefore: { $0 > 0 ? $0 - 1 : nil }, isActive: { _ in true }) == 3)
    }
}
