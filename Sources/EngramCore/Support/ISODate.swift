import Foundation

/// ISO-8601 dates for export and import, exact to the millisecond and stable across round trips.
public enum ISODate {
    /// `2026-03-04T09:12:00Z`, or with `.123` milliseconds when there are any.
    public static func format(_ date: Date) -> String {
        let totalMs = (date.timeIntervalSince1970 * 1000).rounded()
        var secs = time_t((totalMs / 1000).rounded(.down))
        let ms = Int(totalMs - Double(secs) * 1000)
        var tm = tm()
        gmtime_r(&secs, &tm)
        var s = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", Int(tm.tm_year) + 1900, Int(tm.tm_mon) + 1, Int(tm.tm_mday), Int(tm.tm_hour), Int(tm.tm_min), Int(tm.tm_sec))
        if ms != 0 { s += String(format: ".%03d", ms) }
        return s + "Z"
    }

    /// `2026-03-04` in UTC.
    public static func day(_ date: Date) -> String { String(format(date).prefix(10)) }

    /// Parses `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS[.fff]]` with `Z`, `±HH:MM` or no zone (UTC).
    public static func parse(_ text: String) -> Date? {
        let s = Array(text.trimmingCharacters(in: .whitespaces).utf8)
        var i = 0
        func num(_ n: Int) -> Int? {
            guard i + n <= s.count else { return nil }
            var v = 0
            for k in 0..<n { let c = s[i + k]; guard c >= 48 && c <= 57 else { return nil }; v = v * 10 + Int(c - 48) }
            i += n
            return v
        }
        func eat(_ c: UInt8) -> Bool { if i < s.count && s[i] == c { i += 1; return true }; return false }
        guard let y = num(4), eat(45), let mo = num(2), eat(45), let d = num(2), (1...12).contains(mo), (1...31).contains(d) else { return nil }
        var h = 0, mi = 0, sec = 0, frac = 0.0, offset = 0
        if i < s.count && (s[i] == 84 || s[i] == 32) {  // 'T' or ' '
            i += 1
            guard let hh = num(2), eat(58), let mm = num(2), hh < 24, mm < 60 else { return nil }
            h = hh; mi = mm
            if eat(58) { guard let ss = num(2), ss < 61 else { return nil }; sec = ss }
            if eat(46) {
                var scale = 0.1
                var any = false
                while i < s.count, s[i] >= 48, s[i] <= 57 { frac += Double(s[i] - 48) * scale; scale /= 10; i += 1; any = true }
                guard any else { return nil }
            }
            if eat(90) || eat(122) {
            } else if i < s.count && (s[i] == 43 || s[i] == 45) {
                let sign = s[i] == 45 ? -1 : 1
                i += 1
                guard let oh = num(2) else { return nil }
                _ = eat(58)
                let om = num(2) ?? 0
                offset = sign * (oh * 3600 + om * 60)
            }
        }
        guard i == s.count else { return nil }
        var tm = tm()
        tm.tm_year = Int32(y - 1900); tm.tm_mon = Int32(mo - 1); tm.tm_mday = Int32(d)
        tm.tm_hour = Int32(h); tm.tm_min = Int32(mi); tm.tm_sec = Int32(sec)
        let t = timegm(&tm)
        return Date(timeIntervalSince1970: Double(t - offset) + frac)
    }
}
