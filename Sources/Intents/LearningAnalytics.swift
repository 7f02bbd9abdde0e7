import EngramCore
import Foundation

/// Study time and progress computed from the sessions in the store.
public struct LearningAnalytics: Sendable, Codable, Equatable {
    /// Time and progress on one curriculum.
    public struct CurriculumRow: Sendable, Codable, Equatable {
        public var id: String
        public var title: String
        public var minutes: Int
        public var sessions: Int
        public var topicsDone: Int
        public var topics: Int
    }

    /// Time on one topic.
    public struct TopicRow: Sendable, Codable, Equatable {
        public var id: String
        public var title: String
        public var curriculumID: String
        public var minutes: Int
    }

    /// Minutes studied on one day.
    public struct DayRow: Sendable, Codable, Equatable {
        public var day: String
        public var minutes: Int
    }

    public var range: TimeRange
    public var totalMinutes: Int
    public var sessionCount: Int
    /// Days in the range with any study.
    public var studyDays: Int
    /// Consecutive days with study, ending today (or yesterday).
    public var streakDays: Int
    public var longestStreakDays: Int
    public var curricula: [CurriculumRow]
    public var topics: [TopicRow]
    /// The last 14 days, oldest first.
    public var days: [DayRow]

    /// Computes analytics for learning sessions started in `range`, at the store's clock.
    public static func compute(store: Store, range: TimeRange, calendar: Calendar = .current) throws -> LearningAnalytics {
        let now = store.clock()
        let start = range.start(at: now, calendar: calendar)
        let all = try store.sessions(limit: 100_000).filter { $0.kind == .learning }
        let inRange = all.filter { start == nil || $0.started >= start! }
        var perCurriculum: [String: (Double, Int)] = [:]
        var perTopic: [String: Double] = [:]
        var perDay: [Date: Double] = [:]
        for s in inRange {
            let secs = s.elapsed(at: now)
            if let c = s.curriculumID { perCurriculum[c, default: (0, 0)].0 += secs; perCurriculum[c, default: (0, 0)].1 += 1 }
            if let t = s.topicID { perTopic[t, default: 0] += secs }
        }
        var studied = Set<Date>()
        for s in all { studied.insert(calendar.startOfDay(for: s.started)) }
        for s in all { perDay[calendar.startOfDay(for: s.started), default: 0] += s.elapsed(at: now) }
        let today = calendar.startOfDay(for: now)
        let streak = Streak.days(endingAt: today, dayBefore: { calendar.date(byAdding: .day, value: -1, to: $0) },
                                 isActive: studied.contains)
        var longest = 0, run = 0
        var previous: Date?
        for d in studied.sorted() {
            run = previous.map { calendar.date(byAdding: .day, value: 1, to: $0) == d } == true ? run + 1 : 1
            longest = max(longest, run)
            previous = d
        }
        var curricula: [CurriculumRow] = []
        for c in try store.curricula() {
            let topics = try store.topics(of: c.id)
            let (secs, n) = perCurriculum[c.id] ?? (0, 0)
            curricula.append(CurriculumRow(id: c.id, title: c.title, minutes: Int(secs / 60), sessions: n,
                                           topicsDone: topics.filter(\.done).count, topics: topics.count))
        }
        var topics: [TopicRow] = []
        for (id, secs) in perTopic {
            guard let t = try store.topic(id: id) else { continue }
            topics.append(TopicRow(id: id, title: t.title, curriculumID: t.curriculumID, minutes: Int(secs / 60)))
        }
        topics.sort { ($1.minutes, $0.id) < ($0.minutes, $1.id) }
        var days: [DayRow] = []
        for back in (0..<14).reversed() {
            let d = calendar.date(byAdding: .day, value: -back, to: today)!
            days.append(DayRow(day: Self.dayString(d, calendar), minutes: Int((perDay[d] ?? 0) / 60)))
        }
        let inRangeDays = Set(inRange.map { calendar.startOfDay(for: $0.started) })
        return LearningAnalytics(range: range, totalMinutes: Int(saturating: inRange.reduce(0) { $0 + $1.elapsed(at: now) } / 60),
                                 sessionCount: inRange.count, studyDays: inRangeDays.count, streakDays: streak,
                                 longestStreakDays: longest, curricula: curricula, topics: topics, days: days)
    }

    static func dayString(_ d: Date, _ calendar: Calendar) -> String {
        let c = calendar.dateComponents([.year, .month, .day], from: d)
        return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
    }

    /// A plain-text table.
    public func table() -> String {
        var lines = ["curriculum                          time   sessions  progress"]
        for c in curricula {
            let title = c.title.count > 32 ? String(c.title.prefix(31)) + "…" : c.title
            let pct = c.topics > 0 ? c.topicsDone * 100 / c.topics : 0
            lines.append(title.padding(toLength: 34, withPad: " ", startingAt: 0)
                         + Self.hm(c.minutes).leftPad(6) + String(c.sessions).leftPad(11)
                         + "  \(c.topicsDone)/\(c.topics) (\(pct)%)")
        }
        if !topics.isEmpty {
            lines.append("")
            lines.append("topic                               time")
            for t in topics.prefix(10) {
                let title = t.title.count > 32 ? String(t.title.prefix(31)) + "…" : t.title
                lines.append(title.padding(toLength: 34, withPad: " ", startingAt: 0) + Self.hm(t.minutes).leftPad(6))
            }
        }
        lines.append("")
        lines.append("\(Self.hm(totalMinutes)) in \(sessionCount) session\(sessionCount == 1 ? "" : "s") over \(studyDays) day\(studyDays == 1 ? "" : "s")"
                     + (range == .all ? "" : " (\(range.phrase))") + " · streak \(streakDays) · longest \(longestStreakDays)")
        return lines.joined(separator: "\n") + "\n"
    }

    static func hm(_ minutes: Int) -> String { String(format: "%d:%02d", minutes / 60, minutes % 60) }

    /// A bar chart of the last 14 days and the time per curriculum, as a standalone SVG.
    public func svg() -> String {
        func esc(_ s: String) -> String {
            s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
        let w = 640, barArea = 160, top = 40
        let maxMin = max(1, days.map(\.minutes).max() ?? 1)
        var out = ["<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(w)\" height=\"\(top + barArea + 60 + curricula.count * 24 + 20)\" font-family=\"sans-serif\" font-size=\"12\">",
                   "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>",
                   "<text x=\"16\" y=\"24\" font-size=\"16\" font-weight=\"bold\">Study time, last 14 days · streak \(streakDays) day\(streakDays == 1 ? "" : "s")</text>"]
        let slot = (w - 32) / max(1, days.count)
        for (i, d) in days.enumerated() {
            let h = d.minutes * barArea / maxMin
            let x = 16 + i * slot
            out.append("<rect x=\"\(x + 4)\" y=\"\(top + barArea - h)\" width=\"\(slot - 8)\" height=\"\(h)\" fill=\"#4a90d9\"><title>\(d.day): \(d.minutes) min</title></rect>")
            out.append("<text x=\"\(x + slot / 2)\" y=\"\(top + barArea + 16)\" text-anchor=\"middle\" fill=\"#555\">\(d.day.suffix(5))</text>")
        }
        var y = top + barArea + 48
        let maxC = max(1, curricula.map(\.minutes).max() ?? 1)
        for c in curricula {
            let bw = c.minutes * 300 / maxC
            out.append("<text x=\"16\" y=\"\(y + 12)\">\(esc(String(c.title.prefix(30))))</text>")
            out.append("<rect x=\"250\" y=\"\(y)\" width=\"\(bw)\" height=\"16\" fill=\"#7bc47f\"/>")
            out.append("<text x=\"\(256 + bw)\" y=\"\(y + 12)\">\(Self.hm(c.minutes)) · \(c.topicsDone)/\(c.topics) topics</text>")
            y += 24
        }
        out.append("</svg>")
        return out.joined(separator: "\n") + "\n"
    }
}

extension String {
    func leftPad(_ n: Int) -> String { count >= n ? self : String(repeating: " ", count: n - count) + self }
}
