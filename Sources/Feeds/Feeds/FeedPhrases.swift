/// Short phrases the feeds share: fading, ages, durations, progress bars, dates.
enum FeedPhrases {
    /// "fades in 12 days", "fades today", "faded from search", "pinned".
    static func fading(_ d: MemoryDetail, now: Double) -> String {
        guard let days = d.daysLeft(at: now) else { return "pinned" }
        if d.faded { return "faded from search" }
        switch days {
        case 0: return "fades today"
        case 1: return "fades tomorrow"
        default: return "fades in \(days) days"
        }
    }

    /// "just now", "5 min ago", "3 h ago", "yesterday", "4 days ago".
    static func age(_ instant: Double, now: Double, calendar: LocalCalendar) -> String {
        let secs = max(0, now - instant)
        if secs < 60 { return "just now" }
        if secs < 3600 { return "\(Int(saturating: secs / 60)) min ago" }
        let days = calendar.dayNumber(now) - calendar.dayNumber(instant)
        if days <= 0 { return "\(Int(saturating: secs / 3600)) h ago" }
        if days == 1 { return "yesterday" }
        return "\(days) days ago"
    }

    /// "25m", "1h 05m" (bars); with `seconds`, "25:07" or "1:05:07".
    static func duration(_ seconds: Double, withSeconds: Bool = false) -> String {
        let total = Int(saturating: max(0, seconds).rounded(.down))  // a peer's total may be absurd: no trap
        let h = total / 3600, m = (total % 3600) / 60, s = total % 60
        if withSeconds {
            return h > 0 ? "\(h):" + CivilDate.pad(m, 2) + ":" + CivilDate.pad(s, 2) : "\(m):" + CivilDate.pad(s, 2)
        }
        return h > 0 ? "\(h)h " + CivilDate.pad(m, 2) + "m" : "\(m)m"
    }

    /// A bar of `width` cells, e.g. `▓▓▓░░░░░`.
    static func bar(_ percentage: Int, width: Int = 10) -> String {
        let filled = min(width, max(0, (percentage * width + 50) / 100))
        return String(repeating: "▓", count: filled) + String(repeating: "░", count: width - filled)
    }

    /// The local day of `instant`, `YYYY-MM-DD`.
    static func day(_ instant: Double, _ calendar: LocalCalendar) -> String {
        calendar.dayKey(calendar.dayNumber(instant))
    }

    /// The local time of `instant`, `HH:MM`.
    static func time(_ instant: Double, _ calendar: LocalCalendar) -> String {
        let (h, m) = calendar.clockTime(instant)
        return CivilDate.pad(h, 2) + ":" + CivilDate.pad(m, 2)
    }

    /// `#a #b` from tags, cleaned; "" when there are none.
    static func tags(_ tags: [String]) -> String {
        tags.map { "#" + DisplayText.line($0, limit: 40) }.joined(separator: " ")
    }

    /// "1 day" / "3 days".
    static func count(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(n) " + (n == 1 ? singular : plural ?? singular + "s")
    }

    /// `message` as a sentence: capital first letter, final full stop.
    static func sentence(_ message: String) -> String {
        let line = DisplayText.line(message).capitalizedFirst
        return line.hasSuffix(".") || line.hasSuffix("!") || line.hasSuffix("?") ? line : line + "."
    }

    /// "never used", "used once", "used 3 times".
    static func uses(_ n: Int) -> String {
        n <= 0 ? "never used" : n == 1 ? "used once" : "used \(n) times"
    }

    /// The whole percentage of a score in 0…1.
    static func percent(_ score: Double) -> Int { Int((min(1, max(0, score)) * 100).rounded()) }
}
