import Foundation
import GRDB

/// How a link between two memories came to be.
public enum LinkOrigin: String, Codable, Sendable {
    /// Found by the indexer's relevance feedback when a memory was captured.
    case auto
    /// Made by the person.
    case manual
}

/// A weighted, undirected connection between two memories (stored once, from → to).
public struct MemoryLink: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "link"
    public var fromID: String
    public var toID: String
    public var origin: LinkOrigin
    public var weight: Double
    public var created: Date

    /// Columns of the `link` table.
    public enum Columns {
        public static let fromID = Column(CodingKeys.fromID)
        public static let toID = Column(CodingKeys.toID)
        public static let origin = Column(CodingKeys.origin)
        public static let weight = Column(CodingKeys.weight)
    }

    /// Creates a link.
    public init(fromID: String, toID: String, origin: LinkOrigin, weight: Double, created: Date) {
        self.fromID = fromID
        self.toID = toID
        self.origin = origin
        self.weight = weight
        self.created = created
    }

    /// The other end of the link, seen from `id`.
    public func other(than id: String) -> String { fromID == id ? toID : fromID }
}
