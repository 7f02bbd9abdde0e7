import EngramRules
import Testing

@Suite struct TimestampTests {
    static let instant = 1_772_615_520.0  // 2026-03-04T09:12:00Z

    @Test("ISO 8601, the store's text and plain days parse", arguments: [
        ("2026-03-04T09:12:00Z", instant), ("2026-03-04 09:12:00.000", instant), ("2026-03-04T09:12Z", instant),
        ("2026-03-04T09:12:00", instant), ("2026-03-04T10:12:00+01:00", instant), ("2026-03-04T08:12:00-0100", instant),
        ("2026-03-04T09:12:00z", instant), ("  2026-03-04T09:12:00Z\t", instant), ("2026-03-04T09:12:00.250Z", instant + 0.25),
        ("2026-03-04", 1_772_582_400), ("1970-01-01", 0), ("1969-12-31T23:59:59Z", -1),
    ])
    func parses(_ text: String, _ expected: Double) {
        #expect(Timestamp.parse(text) == expected)
    }

    @Test("malformed text does not parse", arguments: [
        "", "2026-3-04", "2026-13-01", "2026-03-00", "2026-03-04T24:00Z", "2026-03-04T09:60Z", "2026-03-04T09:12:00.Z",
        "2026-03-04T09:12:00Zjunk", "2026/03/04", "tomorrow",
    ])
    func refuses(_ text: String) {
        #expect(Timestamp.parse(text) == nil)
    }

    @Test func formatsToTheMillisecondAndRoundTrips() {
        #expect(Timestamp.iso(Self.instant) == "2026-03-04T09:12:00Z")
        #expect(Timestamp.iso(Self.instant + 0.123) == "2026-03-04T09:12:00.123Z")
        #expect(Timestamp.iso(Self.instant + 0.9996) == "2026-03-04T09:12:01Z")
        #expect(Timestamp.iso(-0.5) == "1969-12-31T23:59:59.500Z")
        #expect(Timestamp.storeText(Self.instant + 0.5) == "2026-03-04 09:12:00.500")
        #expect(Timestamp.day(Self.instant) == "2026-03-04")
        for t in [0.0, 1.001, Self.instant + 0.042, 4_102_444_799.999] {
            #expect(Timestamp.parse(Timestamp.iso(t)).map { abs($0 - t) < 1e-6 } == true, "\(t)")
            #expect(Timestamp.parse(Timestamp.storeText(t)).map { abs($0 - t) < 1e-6 } == true, "\(t)")
        }
    }

    @Test func civilDatesCountDaysFrom1970() {
        #expect(CivilDate.days(year: 1970, month: 1, day: 1) == 0)
        #expect(CivilDate.days(year: 2000, month: 3, day: 1) == 11_017)
        #expect(CivilDate.key(days: 11_016) == "2000-02-29")
        for d in stride(from: -800_000, through: 800_000, by: 997) {
            let (y, m, day) = CivilDate.civil(days: d)
            #expect(CivilDate.days(year: y, month: m, day: day) == d)
        }
    }
}
