import Synchronization

/// A notification server in memory, the twin of `DBusNotificationServer` for tests without a bus.
///
/// It keeps the requests it was sent, numbers notifications as servers do (a known `replaces_id` is
/// kept, anything else gets a new id), and lets a test play the person or the desktop: press a button,
/// dismiss, stop the server and start it again.
public final class InMemoryNotificationServer: NotificationServer {
    private struct State {
        var information: ServerInformation
        var capabilities: Set<String>
        var running = true
        var owner = 1
        var nextID: UInt32 = 1
        var open: Set<UInt32> = []
        var requests: [NotificationRequest] = []
        var closed: [UInt32] = []
    }

    private let state: Mutex<State>
    private let hub = EventHub<NotificationEvent>()

    /// Creates a running server with these capabilities.
    public init(name: String = "memory", capabilities: Set<String> = ["body", "body-markup", "actions", "persistence"]) {
        state = Mutex(State(information: ServerInformation(name: name, vendor: "Engram", version: "1", specVersion: "1.2"),
                            capabilities: capabilities))
    }

    /// Every `Notify` request received, in order.
    public var requests: [NotificationRequest] { state.withLock { $0.requests } }
    /// The ids closed with `CloseNotification`.
    public var closedIDs: [UInt32] { state.withLock { $0.closed } }
    /// The ids of the notifications on screen.
    public var openIDs: Set<UInt32> { state.withLock { $0.open } }

    public func serverInformation() async throws -> ServerInformation {
        try state.withLock { s in
            guard s.running else { throw NotificationServerError.unavailable("not running") }
            return s.information
        }
    }

    public func capabilities() async throws -> Set<String> {
        try state.withLock { s in
            guard s.running else { throw NotificationServerError.unavailable("not running") }
            return s.capabilities
        }
    }

    public func notify(_ request: NotificationRequest) async throws -> UInt32 {
        try state.withLock { s in
            guard s.running else { throw NotificationServerError.unavailable("not running") }
            s.requests.append(request)
            let id: UInt32
            if request.replacesID != 0, s.open.contains(request.replacesID) {
                id = request.replacesID
            } else {
                id = s.nextID
                s.nextID += 1
            }
            s.open.insert(id)
            return id
        }
    }

    public func closeNotification(id: UInt32) async throws {
        let wasOpen = try state.withLock { s in
            guard s.running else { throw NotificationServerError.unavailable("not running") }
            s.closed.append(id)
            return s.open.remove(id) != nil
        }
        if wasOpen { hub.send(.closed(id: id, reason: .closedByCall)) }
    }

    public func events() -> AsyncStream<NotificationEvent> { hub.stream() }

    public func currentOwner() async -> String? {
        state.withLock { $0.running ? ":memory.\($0.owner)" : nil }
    }

    /// The person pressed the button `key` on notification `id` (with an activation token first, if given).
    public func invokeAction(id: UInt32, key: String, activationToken: String? = nil) {
        if let activationToken { hub.send(.activationToken(id: id, token: activationToken)) }
        hub.send(.actionInvoked(id: id, key: key))
    }

    /// Notification `id` closed for `reason` (2: the person dismissed it).
    public func close(id: UInt32, reason: CloseReason) {
        _ = state.withLock { $0.open.remove(id) }
        hub.send(.closed(id: id, reason: reason))
    }

    /// The server stops, forgetting its notifications, as when it crashes.
    public func stop() {
        state.withLock { s in
            s.running = false
            s.open = []
        }
        hub.send(.ownerChanged(owner: nil))
    }

    /// A server starts again (a new instance, numbering from 1).
    public func start(capabilities: Set<String>? = nil) {
        let owner = state.withLock { s -> String in
            s.running = true
            s.owner += 1
            s.nextID = 1
            if let capabilities { s.capabilities = capabilities }
            return ":memory.\(s.owner)"
        }
        hub.send(.ownerChanged(owner: owner))
    }
}
