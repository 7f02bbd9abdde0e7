import Foundation
import GRDB

/// What a person did with Engram, kept so decay and suggestions can learn from use.
public struct Activity: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "activity"

    /// The kinds of use that are logged.
    public enum Action: String, Codable, Sendable, CaseIterable {
        case remember, open, activate, review, search, forget, pin, tag, session
        /// Whether this action strengthens the memory it names.
        public var reinforces: Bool { self == .open || self == .activate || self == .review }
    }

    public var id: Int64?
    public var at: Date
    public var action: Action
    public var memoryID: String?
    public var detail: String?
    public var source: String?

    /// Columns of the `activity` table.
    public enum Columns {
        public static let at = Column(CodingKeys.at)
        public static let action = Column(CodingKeys.action)
        public static let memoryID = Column(CodingKeys.memoryID)
    }

    /// Creates an activity row.
    public init(at: Date, action: Action, memoryID: String? = nil, detail: String? = nil, source: String? = nil) {
        self.at = at
        self.action = action
        self.memoryID = memoryID
        self.detail = detail
        self.source = source
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
