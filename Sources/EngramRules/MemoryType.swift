/// The kinds of memory a person keeps (the store's `type` column).
public enum MemoryType: String, Codable, Sendable, CaseIterable, Comparable {
    case note, idea, task, quote, learning

    /// A plural, human label ("notes", "ideas", …).
    public var plural: String {
        switch self {
        case .note: "notes"
        case .idea: "ideas"
        case .task: "tasks"
        case .quote: "quotes"
        case .learning: "learnings"
        }
    }

    /// The freedesktop icon name used for this kind in search results, notifications and feeds: one that Adwaita
    /// (GNOME 43 on) and Breeze both have, each type its own (`IconTests` checks the installed theme).
    public var iconName: String {
        switch self {
        case .note: "text-x-generic"
        case .idea: "dialog-information"
        case .task: "task-due"
        case .quote: "format-text-italic"
        case .learning: "accessories-dictionary"
        }
    }

    /// A one-character symbol from common fonts (DejaVu), so bars need no icon font.
    public var symbol: String {
        switch self {
        case .note: "✎"
        case .idea: "✦"
        case .task: "☐"
        case .quote: "❝"
        case .learning: "✧"
        }
    }

    /// The types as a person reads them in a message: "note, idea, task, quote or learning".
    public static var spokenList: String {
        let names = allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    public static func < (a: MemoryType, b: MemoryType) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
