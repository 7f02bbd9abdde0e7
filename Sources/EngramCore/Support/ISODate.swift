import Foundation

/// ISO-8601 dates for export and import as `Date`s: `EngramRules.Timestamp`, exact to the millisecond.
public enum ISODate {
    /// `2026-03-04T09:12:00Z`, or with `.123` milliseconds when there are any.
    public static func format(_ date: Date) -> String { Timestamp.iso(date.timeIntervalSince1970) }

    /// `2026-03-04` in UTC.
    public static func day(_ date: Date) -> String { Timestamp.day(date.timeIntervalSince1970) }

    /// Parses `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS[.fff]]` with `Z`, `±HH:MM` or no zone (UTC).
    public static func parse(_ text: String) -> Date? { Timestamp.parse(text).map(Date.init(timeIntervalSince1970:)) }
}

extension Date {
    /// Now on Engram's wall clock (`WallClock`: the system's, unless a test chose another).
    public static var wallNow: Date { Date(timeIntervalSince1970: WallClock.now()) }
}
