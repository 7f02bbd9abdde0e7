/// A live activity shown as one freedesktop notification, updated in place.
///
/// It probes the server once (and again whenever the server changes), keeps the id the server returns and
/// sends it back as `replaces_id`, maps buttons to `ActionInvoked` keys, and treats a close with reason 2 as
/// the person dismissing it — unless it is the one close that follows a button press (some servers close
/// a notification when a button is pressed; it comes back with the new state, and a dismissal of that is final).
/// When there is no server it stays quiet and reports `.unavailable` once; when one appears it asks to be reposted.
public actor NotificationSurface: ActivitySurface {
    /// How long after a button press a “dismissed” close is taken as the press closing it, not the person.
    public static let actionCloseGrace: Duration = .seconds(2)

    private let server: any NotificationServer
    private let renderer: NotificationRenderer
    private let continuation: AsyncStream<ActivityEvent>.Continuation
    private let stream: AsyncStream<ActivityEvent>
    private var detached = false

    private var profile: ServerProfile?
    private var id: UInt32 = 0
    private var dismissed = false
    private var unavailable = false
    private var reportedUnavailable = false
    private var hasShown = false
    private var tokens: [UInt32: String] = [:]
    /// The notification whose button was pressed last, and when.
    private var pressedAt: (id: UInt32, at: ContinuousClock.Instant)?
    private var closingOurselves: Set<UInt32> = []

    /// Creates a surface on `server`; `renderer.stackTag` should be unique to the activity (the session id).
    public init(server: any NotificationServer, renderer: NotificationRenderer) {
        self.server = server
        self.renderer = renderer
        (stream, continuation) = AsyncStream<ActivityEvent>.makeStream(bufferingPolicy: .unbounded)
        let serverEvents = server.events()
        Task { [weak self] in
            for await event in serverEvents {
                guard let self else { return }
                await self.handle(event)
            }
        }
    }

    /// The id of the notification shown now, or 0.
    public var notificationID: UInt32 { id }

    /// The profile of the server in use, once probed.
    public var serverProfile: ServerProfile? { profile }

    public nonisolated func events() -> AsyncStream<ActivityEvent> { stream }

    @discardableResult
    public func present(_ content: ActivityContent, as kind: PresentationKind) async -> PresentOutcome {
        guard !dismissed, !unavailable else { return .unavailable }
        if profile == nil {
            do {
                async let information = server.serverInformation()
                async let capabilities = server.capabilities()
                profile = ServerProfile(information: try await information, capabilities: try await capabilities)
            } catch {
                return noteFailure(error)
            }
        }
        guard let profile, !dismissed else { return .unavailable }
        let request = renderer.request(for: content, kind: kind, profile: profile, replacesID: id)
        do {
            let given = try await server.notify(request)
            hasShown = true
            reportedUnavailable = false
            if given != id {
                id = given
                // Whoever takes the notification over checks it is the same server's: a hand-off without the
                // server's name is never adopted, so a bus slow to answer is asked again.
                var owner = await server.currentOwner()
                for _ in 0..<5 where owner == nil {
                    try? await Task.sleep(for: .milliseconds(100))
                    owner = await server.currentOwner()
                }
                continuation.yield(.posted(NotificationHandOff(id: given, serverOwner: owner)))
            }
            return .shown
        } catch {
            return noteFailure(error)
        }
    }

    public func adopt(_ handOff: NotificationHandOff) async {
        guard id == 0, handOff.id != 0, let owner = handOff.serverOwner, await server.currentOwner() == owner else { return }
        id = handOff.id
    }

    public func remove() async {
        guard id != 0 else { return }
        let closing = id
        closingOurselves.insert(closing)
        id = 0
        try? await server.closeNotification(id: closing)
    }

    public func handOff() async -> NotificationHandOff? {
        guard id != 0 else { return nil }
        return NotificationHandOff(id: id, serverOwner: await server.currentOwner())
    }

    public func detach() async {
        detached = true
        continuation.finish()
    }

    private func noteFailure(_ error: any Error) -> PresentOutcome {
        switch error as? NotificationServerError {
        case .unavailable(let why):
            // Wait for a server to appear (ownerChanged) instead of calling into the void on every update.
            unavailable = true
            profile = nil
            id = 0
            if !reportedUnavailable {
                reportedUnavailable = true
                continuation.yield(.unavailable(why))
            }
            return .unavailable
        default:
            return .failed  // KDE's flood guard, a timeout, an error: the activity tries the latest state again.
        }
    }

    private func handle(_ event: NotificationEvent) {
        guard !detached else { return }
        switch event {
        case .activationToken(let nid, let token):
            guard nid != 0, nid == id else { return }
            tokens[nid] = token
        case .actionInvoked(let nid, let key):
            guard nid != 0, nid == id, !dismissed else { return }
            pressedAt = (nid, .now)
            switch key {
            case "default", "open": continuation.yield(.open(activationToken: tokens.removeValue(forKey: nid)))
            case "pause": continuation.yield(.action(.pause))
            case "resume": continuation.yield(.action(.resume))
            case "stop": continuation.yield(.action(.stop))
            default: return
            }
        case .closed(let nid, let reason):
            if closingOurselves.remove(nid) != nil { return }
            guard nid != 0, nid == id else { return }
            id = 0
            tokens[nid] = nil
            continuation.yield(.gone)
            guard reason == .dismissed else { return }  // expired or closed otherwise: the next change shows it again
            // The close a server answers a press of this notification's button with, once; any later close is the person's.
            if let (pressed, at) = pressedAt, pressed == nid, ContinuousClock.now - at < Self.actionCloseGrace {
                pressedAt = nil
                return
            }
            dismissed = true
            continuation.yield(.dismissedByUser)
        case .ownerChanged(let owner):
            if id != 0 { continuation.yield(.gone) }
            profile = nil
            id = 0
            tokens = [:]
            closingOurselves = []
            guard owner != nil else { return }
            unavailable = false
            if hasShown || reportedUnavailable, !dismissed { continuation.yield(.needsRepost) }
        }
    }
}
