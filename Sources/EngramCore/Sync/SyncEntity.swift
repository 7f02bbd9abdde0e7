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
}
