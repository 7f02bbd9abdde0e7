import Foundation
import GRDB

/// A change the index has yet to learn about, written in the same transaction as the change.
public struct OutboxEntry: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "outbox"

    /// Which index domain the item belongs to.
    public enum Kind: String, Codable, Sendable { case memory, curriculum, topic }

    /// Monotonic sequence number; the indexer remembers the last one it applied.
    public var seq: Int64?
    public var kind: Kind
    public var itemID: String
    public var at: Date
    /// Whether the index may link a new memory to its neighbours (false for imported memories, which bring their links).
    public var link: Bool

    /// Columns of the `outbox` table.
    public enum Columns {
        public static let seq = Column(CodingKeys.seq)
        public static let kind = Column(CodingKeys.kind)
        public static let itemID = Column(CodingKeys.itemID)
    }

    /// Creates an entry; the sequence is assigned on insert.
    public init(kind: Kind, itemID: String, at: Date, link: Bool = true) {
        self.kind = kind
        self.itemID = itemID
        self.at = at
        self.link = link
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { seq = inserted.rowID }
}
