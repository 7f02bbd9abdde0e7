import Foundation
import GRDB

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

    /// The largest topic position and session progress count a peer may send (far past any real curriculum).
    static let maxCount: Int64 = 1_000_000_000

    /// Whether `text` is a date as the store keeps it, `YYYY-MM-DD HH:MM:SS.SSS` (UTC): read by the store's
    /// parser (GRDB) and written back to the same text, so a row holding it always decodes.
    static func isStoredDate(_ text: String) -> Bool {
        guard text.utf8.count == 23, let instant = Timestamp.parse(text), Timestamp.storeText(instant) == text else { return false }
        return Date.fromDatabaseValue(text.databaseValue) != nil
    }

    /// Whether `value` fits column `field` (type, nullability, allowed words, ranges, the limits local input
    /// has), so a bad operation is refused before it reaches a table.
    func accepts(_ field: String, _ value: SyncValue) -> Bool {
        switch (field, value) {
        case ("context", .null), ("source", .null), ("curriculumID", .null), ("topicID", .null), ("resumed", .null), ("ended", .null):
            return true
        case ("curriculumID", .text(let t)), ("topicID", .text(let t)):
            return Identifier.isValid(t)
        case ("created", .text(let t)), ("updated", .text(let t)), ("lastReinforced", .text(let t)), ("started", .text(let t)),
             ("resumed", .text(let t)), ("ended", .text(let t)):
            return SyncEntity.isStoredDate(t)
        case ("pinned", .integer(let i)), ("flagged", .integer(let i)), ("done", .integer(let i)):
            return i == 0 || i == 1
        case ("position", .integer(let i)), ("progressDone", .integer(let i)), ("progressTotal", .integer(let i)):
            return (0...SyncEntity.maxCount).contains(i)
        case ("type", .text(let t)):
            return self == .memory ? MemoryType(rawValue: t) != nil : false
        case ("kind", .text(let t)):
            return Session.Kind(rawValue: t) != nil
        case ("state", .text(let t)):
            return Session.State(rawValue: t) != nil
        case ("content", .text(let t)), ("title", .text(let t)), ("description", .text(let t)), ("notes", .text(let t)),
             ("context", .text(let t)), ("source", .text(let t)):
            return SyncOperation.isText(t)
        default:
            return false
        }
    }
}
