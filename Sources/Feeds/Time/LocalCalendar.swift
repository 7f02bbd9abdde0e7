#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The person's calendar days, computed with the C library so feeds need no Foundation.
///
/// Instants are seconds since 1970 (UTC); a day number counts local calendar days since 1970-01-01.
public enum LocalCalendar: Sendable, Equatable {
    /// The process's time zone (`TZ`, else `/etc/localtime`), daylight saving included.
    case system
    /// A fixed offset east of UTC, in seconds (tests and UTC).
    case fixedOffset(Int)

    /// The local calendar day of `instant`.
    public func dayNumber(_ instant: Double) -> Int {
        switch self {
        case .fixedOffset(let offset):
            return Int(((instant + Double(offset)) / 86_400).rounded(.down))
        case .system:
            var t = time_t(instant.rounded(.down))
            var parts = tm()
            localtime_r(&t, &parts)
            return CivilDate.days(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
        }
    }

    /// The first instant of local day `day` (local midnight).
    public func startOfDay(_ day: Int) -> Double {
        switch self {
        case .fixedOffset(let offset):
            return Double(day) * 86_400 - Double(offset)
        case .system:
            let (y, m, d) = CivilDate.civil(days: day)
            var parts = tm()
            parts.tm_year = Int32(y - 1900)
            parts.tm_mon = Int32(m - 1)
            parts.tm_mday = Int32(d)
            parts.tm_isdst = -1
            return Double(mktime(&parts))
        }
    }

    /// The local hour and minute of `instant`.
    public func clockTime(_ instant: Double) -> (hour: Int, minute: Int) {
        switch self {
        case .fixedOffset(let offset):
            let secs = Int((instant + Double(offset)).rounded(.down))
            let inDay = ((secs % 86_400) + 86_400) % 86_400
            return (inDay / 3600, (inDay % 3600) / 60)
        case .system:
            var t = time_t(instant.rounded(.down))
            var parts = tm()
            localtime_r(&t, &parts)
            return (Int(parts.tm_hour), Int(parts.tm_min))
        }
    }

    /// `YYYY-MM-DD` for local day `day`.
    public func dayKey(_ day: Int) -> String { CivilDate.key(days: day) }
}
