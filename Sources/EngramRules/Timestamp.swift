#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading and writing instants (seconds since 1970) as text: ISO 8601 for export, import and feeds, and the
/// store's own date text.
///
/// The store (GRDB) writes dates as UTC text `YYYY-MM-DD HH:MM:SS.SSS`; ISO 8601 here is UTC, exact to the
/// millisecond and stable across round trips.
public enum Timestamp {
    /// Parses `YYYY-MM-DD`, or `YYYY-MM-DD[T| ]HH:MM[:SS[.fff]]` with `Z`, `±HH:MM` or no zone (UTC), into seconds
    /// since 1970; surrounding spaces and tabs are ignored. The store's date text is one such form.
    public static func parse(_ text: String) -> Double? {
        var scalars = Substring(text).unicodeScalars
        while let first = scalars.first, isBlank(first) { scalars.removeFirst() }
        while let last = scalars.last, isBlank(last) { scalars.removeLast() }
        let s = Array(String(scalars).utf8)
        var i = 0
        func num(_ n: Int) -> Int? {
            guard i + n <= s.count else { return nil }
            var v = 0
            for k in 0..<n {
                let c = s[i + k]
                guard c >= 48 && c <= 57 else { return nil }
                v = v * 10 + Int(c - 48)
            }
            i += n
            return v
        }
        func eat(_ c: UInt8) -> Bool {
            if i < s.count && s[i] == c { i += 1; return true }
            return false
        }
        guard let y = num(4), eat(45), let mo = num(2), eat(45), let d = num(2),
              (1...12).contains(mo), (1...31).contains(d) else { return nil }
        var seconds = 0, frac = 0.0
        if i < s.count && (s[i] == 84 || s[i] == 32) {  // 'T' or ' '
            i += 1
            guard let h = num(2), eat(58), let mi = num(2), h < 24, mi < 60 else { return nil }
            seconds = h * 3600 + mi * 60
            if eat(58) {
                guard let sec = num(2), sec < 61 else { return nil }
                seconds += sec
            }
            if eat(46) {
                var scale = 0.1
                var any = false
                while i < s.count, s[i] >= 48, s[i] <= 57 {
                    frac += Double(s[i] - 48) * scale
                    scale /= 10
                    i += 1
                    any = true
                }
                guard any else { return nil }
            }
            if eat(90) || eat(122) {  // 'Z' or 'z'
            } else if i < s.count && (s[i] == 43 || s[i] == 45) {
                let sign = s[i] == 45 ? -1 : 1
                i += 1
                guard let oh = num(2) else { return nil }
                _ = eat(58)
                let om = num(2) ?? 0
                seconds -= sign * (oh * 3600 + om * 60)
            }
        }
        guard i == s.count else { return nil }
        return Double(CivilDate.days(year: y, month: mo, day: d) * 86_400 + seconds) + frac
    }

    /// ISO 8601 in UTC: `2026-03-04T09:12:00Z`, with `.123` when there are milliseconds.
    public static func iso(_ instant: Double) -> String {
        let (day, ms) = split(instant)
        let frac = ms % 1000 == 0 ? "" : "." + CivilDate.pad(ms % 1000, 3)
        return CivilDate.key(days: day) + "T" + clock(ms) + frac + "Z"
    }

    /// `2026-03-04`: the UTC day of `instant`.
    public static func day(_ instant: Double) -> String { CivilDate.key(days: split(instant).day) }

    /// The store's own text for `instant` (UTC, milliseconds), for comparisons in SQL.
    public static func storeText(_ instant: Double) -> String {
        let (day, ms) = split(instant)
        return CivilDate.key(days: day) + " " + clock(ms) + "." + CivilDate.pad(ms % 1000, 3)
    }

    /// Whether `scalar` is a space or tab (what `CharacterSet.whitespaces` holds).
    private static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
    }

    private static func split(_ instant: Double) -> (day: Int, msInDay: Int) {
        let totalMs = Int((instant * 1000).rounded())
        let day = Int((Double(totalMs) / 86_400_000).rounded(.down))
        return (day, totalMs - day * 86_400_000)
    }

    private static func clock(_ msInDay: Int) -> String {
        let secs = msInDay / 1000
        return CivilDate.pad(secs / 3600, 2) + ":" + CivilDate.pad((secs % 3600) / 60, 2) + ":" + CivilDate.pad(secs % 60, 2)
    }
}

/// The current time, from the C library, in seconds since 1970.
public func currentInstant() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
