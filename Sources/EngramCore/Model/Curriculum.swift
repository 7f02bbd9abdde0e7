import Foundation
import GRDB

/// A learning curriculum: an ordered list of topics.
public struct Curriculum: Codable, Sendable, Equatable, Identifiable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "curriculum"
    public var id: String
    public var title: String
    public var description: String
    public var created: Date
    public var updated: Date
    public var source: String?

    /// Columns of the `curriculum` table.
    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let title = Column(CodingKeys.title)
    }

    /// Creates a curriculum.
    public init(id: String, title: String, description: String = "", created: Date, updated: Date? = nil, source: String? = nil) {
        self.id = id
        self.title = title
        self.description = description
        self.created = created
        self.updated = updated ?? created
        self.source = source
    }
}

/// One topic of a curriculum, in order.
public struct Topic: Codable, Sendable, Equatable, Identifiable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "topic"
    public var id: String
    public var curriculumID: String
    public var position: Int
    public var title: String
    public var notes: String
    public var flagged: Bool
    public var done: Bool
    public var created: Date
    public var updated: Date

    /// Columns of the `topic` table.
    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let curriculumID = Column(CodingKeys.curriculumID)
        public static let position = Column(CodingKeys.position)
        public static let done = Column(CodingKeys.done)
        public static let flagged = Column(CodingKeys.flagged)
    }

    /// Creates a topic.
    public init(id: String, curriculumID: String, position: Int, title: String, notes: String = "", flagged: Bool = false, done: Bool = false, created: Date, updated: Date? = nil) {
        self.id = id
        self.curriculumID = curriculumID
        self.position = position
        self.title = title
        self.notes = notes
        self.flagged = flagged
        self.done = done
        self.created = created
        self.updated = updated ?? created
    }
}
