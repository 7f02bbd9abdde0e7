/// The kind of a memory as feeds show it (the store's `type` column).
public enum MemoryKind: String, Sendable, CaseIterable, Comparable {
    case note, idea, task, quote, learning

    /// Reads the store's value; anything unknown is shown as a note rather than failing a bar.
    public init(storeValue: String) { self = MemoryKind(rawValue: storeValue) ?? .note }

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

    /// The freedesktop icon name, as the core model's `MemoryType.iconName`.
    public var iconName: String {
        switch self {
        case .note: "text-x-generic"
        case .idea: "dialog-information"
        case .task: "task-due"
        case .quote: "format-text-italic"
        case .learning: "accessories-dictionary"
        }
    }

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

    /// How much this kind counts when choosing what to resurface.
    var importance: Double {
        switch self {
        case .learning: 1.3
        case .idea: 1.2
        case .quote: 1.1
        case .note: 1.0
        case .task: 0.9
        }
    }

    public static func < (a: MemoryKind, b: MemoryKind) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
