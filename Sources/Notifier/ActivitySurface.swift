/// Where a live activity is shown: a notification, or KDE's job progress view.
///
/// `LiveActivity` calls `present` and `remove` one at a time, never concurrently.
public protocol ActivitySurface: Sendable {
    /// Shows `content`, replacing what this surface showed before.
    func present(_ content: ActivityContent, as kind: PresentationKind) async
    /// Takes the activity off the screen.
    func remove() async
    /// A stream of what the person (or the server) did; one consumer.
    func events() -> AsyncStream<ActivityEvent>
    /// What a helper process needs to take the shown notification down later, if this surface can hand it off.
    func handOff() async -> NotificationHandOff?
    /// Stops listening; the surface is not used again.
    func detach() async
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
