import Foundation

/// The type of an intent's parameter; it decides how a spoken or typed value is read, and its D-Bus type.
public enum ParameterKind: String, Sendable, Codable, CaseIterable {
    /// Free text.
    case text
    /// A whole number.
    case integer
    /// Yes or no.
    case boolean
    /// today, week, month, year or all.
    case timeRange
    /// A memory type: note, idea, task, quote, learning.
    case memoryType
    /// A memory id.
    case memory
    /// A curriculum, by id or title.
    case curriculum
    /// A curriculum topic, by id or title.
    case topic

    /// The D-Bus signature of a value of this kind.
    public var dbusSignature: String {
        switch self {
        case .integer: "i"
        case .boolean: "b"
        default: "s"
        }
    }
}

/// One typed parameter of an intent, with its default.
public struct IntentParameter: Sendable, Equatable {
    public var name: String
    public var kind: ParameterKind
    /// The value used when a phrase or caller gives none; nil makes the parameter required.
    public var defaultValue: String?
    public var summary: String

    /// Creates a parameter.
    public init(_ name: String, _ kind: ParameterKind, default defaultValue: String? = nil, _ summary: String) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.summary = summary
    }

    /// Whether the intent cannot run without it.
    public var isRequired: Bool { defaultValue == nil }
}

/// A time range a summary or analytics covers, ending now.
public enum TimeRange: String, Sendable, Codable, CaseIterable {
    case today, week, month, year, all

    /// Reads "this week", "week", "7d" and the like.
    public init?(spoken: String) {
        let s = spoken.lowercased().replacingOccurrences(of: "this ", with: "").replacingOccurrences(of: "the last ", with: "")
            .trimmingCharacters(in: .whitespaces)
        switch s {
        case "today", "day", "1d": self = .today
        case "week", "7d", "7 days": self = .week
        case "month", "30d", "30 days": self = .month
        case "year", "365d": self = .year
        case "all", "ever", "all time", "": self = .all
        default: return nil
        }
    }

    /// The first instant in the range, or nil for all time.
    public func start(at now: Date, calendar: Calendar) -> Date? {
        let today = calendar.startOfDay(for: now)
        switch self {
        case .today: return today
        case .week: return calendar.date(byAdding: .day, value: -6, to: today)
        case .month: return calendar.date(byAdding: .day, value: -29, to: today)
        case .year: return calendar.date(byAdding: .day, value: -364, to: today)
        case .all: return nil
        }
    }

    /// Words for the result sentence ("this week", "", …).
    public var phrase: String {
        switch self {
        case .today: "today"
        case .week: "this week"
        case .month: "this month"
        case .year: "this year"
        case .all: ""
        }
    }
}
