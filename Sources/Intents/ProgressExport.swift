import EngramCore
import Foundation
import EngramApp
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
    ///
    /// With `onlyToDataFolder` (a request from the bus), `path` may only be empty or a plain file name, which is
    /// written inside `exports/`; a path with a folder in it is refused with a sentence, nothing written.
    public func write(format: String, to path: String, onlyToDataFolder: Bool = false) throws -> (String, Int) {
        let name = try Self.confinedName(path, onlyToDataFolder: onlyToDataFolder)
        let (text, n) = try document(format: format)
        var target = path
        if target.isEmpty || name != nil {
            let dir = library.paths.dataDirectory + "/exports"
            try EngramPaths.ensurePrivateDirectory(dir)
            target = "\(dir)/" + (name ?? "progress-\(ISODate.day(library.store.clock())).\(format.lowercased() == "json" ? "json" : "md")")
        }
        guard FileManager.default.createFile(atPath: target, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw EngramError.io("cannot write \(target)")
        }
        return (target, n)
    }

    /// The file name to write inside `exports/` when confined (nil: the default name, or not confined); throws for
    /// a path that names a folder, `.`/`..`, or control characters.
    static func confinedName(_ path: String, onlyToDataFolder: Bool) throws -> String? {
        guard onlyToDataFolder, !path.isEmpty else { return nil }
        let plain = !path.contains("/") && !path.hasPrefix(".") && path.utf8.count <= 200
            && !path.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7f }
        guard plain else {
            throw EngramError.invalidInput("over D-Bus, progress is exported only into Engram's exports folder: give a plain file name (or none), not \(path.debugDescription.prefix(80)); `engram ask \"export progress to …\"` writes anywhere you choose")
        }
        return path
    }
}
