import EngramCore
import Foundation
import Indexer

/// Writes curricula progress and study time to a Markdown or JSON file.
public struct ProgressExport {
    public let library: Library
    public var calendar: Calendar

    /// Creates an exporter.
    public init(library: Library, calendar: Calendar = .current) {
        self.library = library
        self.calendar = calendar
    }

    /// The progress document in `format` (markdown or json).
    public func document(format: String) throws -> (text: String, curricula: Int) {
        let an = try LearningAnalytics.compute(store: library.store, range: .all, calendar: calendar)
        switch format.lowercased() {
        case "json":
            let e = JSONEncoder()
            e.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            return (String(decoding: try e.encode(an), as: UTF8.self) + "\n", an.curricula.count)
        case "markdown", "md":
            var lines = ["# Learning progress", "", "Exported \(ISODate.day(library.store.clock())).", ""]
            for c in an.curricula {
                lines.append("## \(c.title)")
                lines.append("")
                lines.append("\(c.topicsDone) of \(c.topics) topics done · \(LearningAnalytics.hm(c.minutes)) in \(c.sessions) session\(c.sessions == 1 ? "" : "s")")
                lines.append("")
                for t in try library.store.topics(of: c.id) {
                    lines.append("- [\(t.done ? "x" : " ")] \(t.title)")
                }
                lines.append("")
            }
            lines.append("Streak: \(an.streakDays) day\(an.streakDays == 1 ? "" : "s") · longest \(an.longestStreakDays).")
            return (lines.joined(separator: "\n") + "\n", an.curricula.count)
        default:
            throw EngramError.invalidInput("progress exports as markdown or json, not \(format)")
        }
    }

    /// Writes the document to `path` (or to `exports/progress-DAY.md|json` in the data folder), 0600.
    public func write(format: String, to path: String) throws -> (String, Int) {
        let (text, n) = try document(format: format)
        var target = path
        if target.isEmpty {
            let dir = library.paths.dataDirectory + "/exports"
            try EngramPaths.ensurePrivateDirectory(dir)
            target = "\(dir)/progress-\(ISODate.day(library.store.clock())).\(format.lowercased() == "json" ? "json" : "md")"
        }
        guard FileManager.default.createFile(atPath: target, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw EngramError.io("cannot write \(target)")
        }
        return (target, n)
    }
}
