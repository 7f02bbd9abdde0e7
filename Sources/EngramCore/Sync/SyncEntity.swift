/// The kinds of item sync carries, and how each table's columns merge.
///
/// - `lww` columns: last writer wins by stamp; for `history` columns the values that lose are kept as revisions;
/// - `latest` columns (dates such as `updated`): the latest value wins, whoever wrote it (no revisions: these
///   move with every edit and are not something a person wrote);
/// - `counters`: per-device running totals whose sum is the column (`useCount`, `accumulatedSeconds`).
///
/// Local-only columns (a memory's tags, which merge as a set; a session's host process and notification) are
/// not synced.
public enum SyncEntity: String, Codable, Sendable, CaseIterable {
    case memory, curriculum, topic, session

    /// The store table.
    var table: String { rawValue }

    /// Columns merged last writer wins.
    var lww: [String] {
        switch self {
        case .memory: return ["content", "type", "context", "created", "pinned", "source"]
        case .curriculum: return ["title", "description", "created", "source"]
        case .topic: return ["curriculumID", "position", "title", "notes", "flagged", "done", "created"]
        case .session: return ["kind", "title", "curriculumID", "topicID", "state", "started", "resumed", "ended",
                               "progressDone", "progressTotal"]
        }
    }

    /// Columns whose latest value wins.
    var latest: [String] {
        switch self {
        case .memory: return ["updated", "lastReinforced"]
        case .curriculum, .topic, .session: return ["updated"]
        }
    }

    /// The `lww` columns whose losing values are kept as revisions.
    var history: Set<String> {
        switch self {
        case .memory: return ["content", "type", "context", "pinned", "source"]
        case .curriculum: return ["title", "description"]
        case .topic: return ["title", "notes", "done", "flagged", "position", "curriculumID"]
        case .session: return []
        }
    }

    /// Per-device counters: name in operations → column.
    var counters: [String: String] {
        switch self {
        case .memory: return ["uses": "useCount"]
        case .session: return ["seconds": "accumulatedSeconds"]
        case .curriculum, .topic: return [:]
        }
    }

    /// Every field a `set` may carry.
    var syncedFields: Set<String> { Set(lww + latest) }

    /// The column of counter `name`, or nil.
    func counter(named name: String) -> String? { counters[name] }

    /// Whether `value` fits column `field` (type, nullability, allowed words), so a bad operation is refused
    /// before it reaches a table.
    func accepts(_ field: String, _ value: SyncValue) -> Bool {
        switch (field, value) {
        case ("context", .null), ("source", .null), ("curriculumID", .null), ("topicID", .null), ("resumed", .null), ("ended", .null):
            return true
        case ("curriculumID", .text(let t)), ("topicID", .text(let t)):
            return !t.isEmpty && t.utf8.count <= 256
        case ("created", .text(let t)), ("updated", .text(let t)), ("lastReinforced", .text(let t)), ("started", .text(let t)),
             ("resumed", .text(let t)), ("ended", .text(let t)):
            return t.count == 23 && t.first?.isNumber == true  // "YYYY-MM-DD HH:MM:SS.SSS", as the store keeps dates
        case ("pinned", .integer(let i)), ("flagged", .integer(let i)), ("done", .integer(let i)):
            return i == 0 || i == 1
        case ("position", .integer), ("progressDone", .integer), ("progressTotal", .integer):
            return true
        case ("type", .text(let t)):
            return self == .memory ? MemoryType(rawValue: t) != nil : false
        case ("kind", .text(let t)):
            return Session.Kind(rawValue: t) != nil
        case ("state", .text(let t)):
            return Session.State(rawValue: t) != nil
        case ("content", .text), ("title", .text), ("description", .text), ("notes", .text), ("context", .text), ("source", .text):
            return true
        default:
            return false
        }
    }
}
