/// One logged use of a memory (the store's `activity` table).
public struct ActivityFact: Sendable, Equatable {
    /// The actions feeds care about.
    public enum Action: String, Sendable {
        case open, activate, review, pin
        /// Whether this use strengthens the memory (the others only log).
        public var reinforces: Bool { self != .pin }
    }

    public var memoryID: String
    public var action: Action
    /// Seconds since 1970.
    public var at: Double

    /// Creates a fact.
    public init(memoryID: String, action: Action, at: Double) {
        self.memoryID = memoryID
        self.action = action
        self.at = at
    }
}
