/// Where a live activity is shown: a notification, or KDE's job progress view.
///
/// `LiveActivity` calls `present` and `remove` one at a time, never concurrently.
public protocol ActivitySurface: Sendable {
    /// Shows `content`, replacing what this surface showed before, and says whether the server took it.
    @discardableResult
    func present(_ content: ActivityContent, as kind: PresentationKind) async -> PresentOutcome
    /// Takes the activity off the screen.
    func remove() async
    /// A stream of what the person (or the server) did; one consumer.
    func events() -> AsyncStream<ActivityEvent>
    /// What a helper process needs to take the shown notification down later, if this surface can hand it off.
    func handOff() async -> NotificationHandOff?
    /// Takes over a notification another process showed (and can no longer update), so the next
    /// presentation replaces it rather than adding a second one.
    func adopt(_ handOff: NotificationHandOff) async
    /// Stops listening; the surface is not used again.
    func detach() async
}

/// What became of one presentation.
public enum PresentOutcome: Sendable, Equatable {
    /// The server took it: it is on screen.
    case shown
    /// The call failed (refused as a flood, timed out, an error): the latest state should be tried again.
    case failed
    /// Nothing can show it (no server, or the person dismissed it): wait until the surface asks for a repost.
    case unavailable
}

/// A shown notification that another process may close later: its id and the server instance that gave it.
public struct NotificationHandOff: Sendable, Equatable {
    /// The notification's id.
    public var id: UInt32
    /// The unique bus name of the server that showed it; an id means nothing to another server instance.
    public var serverOwner: String?

    /// Creates a hand-off.
    public init(id: UInt32, serverOwner: String?) {
        self.id = id
        self.serverOwner = serverOwner
    }
}

extension NotificationHandOff {
    /// The hand-off as one line, as the store keeps it: `ID OWNER`.
    public var encoded: String { "\(id) \(serverOwner ?? "")" }

    /// The hand-off `encoded` wrote, or nil.
    public init?(encoded: String) {
        let parts = encoded.split(separator: " ", maxSplits: 1)
        guard let first = parts.first, let id = UInt32(first), id != 0 else { return nil }
        self.init(id: id, serverOwner: parts.count > 1 && !parts[1].isEmpty ? String(parts[1]) : nil)
    }
}
