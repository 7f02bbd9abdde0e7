/// What feeds know about a memory without its text: enough to count, decay and choose.
public struct MemoryFacts: Sendable, Equatable {
    public var id: String
    public var kind: MemoryType
    public var tags: [String]
    public var context: String?
    /// Seconds since 1970.
    public var created: Double
    /// Seconds since 1970 of the last use (or creation).
    public var lastReinforced: Double
    public var useCount: Int
    public var pinned: Bool
    /// How many links touch this memory.
    public var links: Int

    /// Creates facts; `lastReinforced` defaults to `created`.
    public init(id: String, kind: MemoryType = .note, tags: [String] = [], context: String? = nil, created: Double,
                lastReinforced: Double? = nil, useCount: Int = 0, pinned: Bool = false, links: Int = 0) {
        self.id = id
        self.kind = kind
        self.tags = tags
        self.context = context
        self.created = created
        self.lastReinforced = lastReinforced ?? created
        self.useCount = useCount
        self.pinned = pinned
        self.links = links
    }
}

/// Facts follow the shared forgetting curve.
extension MemoryFacts: Fading {
    /// The kind, as the curve names it.
    public var type: MemoryType { kind }
    /// `lastReinforced`, already in seconds since 1970.
    public var lastReinforcedInstant: Double { lastReinforced }
}
