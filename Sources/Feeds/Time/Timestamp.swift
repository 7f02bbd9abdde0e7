#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading and writing the instants the store keeps and the feeds print.
///
/// The store (GRDB) writes dates as UTC text `YYYY-MM-DD HH:MM:SS.SSS`; feeds print ISO 8601 UTC.
public enum Timestamp {
    /// Parses the store's date text or ISO 8601 (`YYYY-MM-DD[ |T]HH:MM[:SS[.fff]][Z|±HH:MM]`, or a day) into seconds since 1970.
    public static func parse(_ text: String) -> Double? {
        let s = Array(text.utf8)
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
        var seconds = 0.0
        if i < s.count && (s[i] == 32 || s[i] == 84) {
            i += 1
            guard let h = num(2), eat(58), let mi = num(2), h < 24, mi < 60 else { return nil }
            seconds = Double(h * 3600 + mi * 60)
            if eat(58) {
                guard let sec = num(2), sec < 61 else { return nil }
                seconds += Double(sec)
            }
            if eat(46) {
                var scale = 0.1
                while i < s.count, s[i] >= 48, s[i] <= 57 {
                    seconds += Double(s[i] - 48) * scale
                    scale /= 10
                    i += 1
                }
            }
            if !eat(90), i < s.count, s[i] == 43 || s[i] == 45 {
                let sign = s[i] == 45 ? -1.0 : 1.0
                i += 1
                guard let oh = num(2) else { return nil }
                _ = eat(58)
                let om = num(2) ?? 0
                seconds -= sign * Double(oh * 3600 + om * 60)
            }
        }
        guard i == s.count else { return nil }
        return Double(CivilDate.days(year: y, month: mo, day: d)) * 86_400 + seconds
    }

    /// The store's own text for `instant` (UTC, milliseconds), for comparisons in SQL.
    public static func storeText(_ instant: Double) -> String {
        let (day, ms) = split(instant)
        return CivilDate.key(days: day) + " " + clock(ms) + "." + CivilDate.pad(ms % 1000, 3)
    }

    /// ISO 8601 in UTC: `2026-03-04T09:12:00Z`, with `.123` when there are milliseconds.
    public static func iso(_ instant: Double) -> String {
        let (day, ms) = split(instant)
        let frac = ms % 1000 == 0 ? "" : "." + CivilDate.pad(ms % 1000, 3)
        return CivilDate.key(days: day) + "T" + clock(ms) + frac + "Z"
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

/// The current time, from the C library.
public func currentInstant() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
