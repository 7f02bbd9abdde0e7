import DBus
import Synchronization

/// A client of `org.freedesktop.Notifications` (Desktop Notifications Specification 1.3) over the session bus.
///
///     Notify(s app_name, u replaces_id, s app_icon, s summary, s body, as actions, a{sv} hints, i expire_timeout) → u
///     CloseNotification(u id)
///     GetCapabilities() → as
///     GetServerInformation() → (s name, s vendor, s version, s spec_version)
///     signal NotificationClosed(u id, u reason)
///     signal ActionInvoked(u id, s action_key)
///     signal ActivationToken(u id, s activation_token)
///
/// It follows the server's bus name: when the server goes away or another takes its place, subscribers
/// get `.ownerChanged`, and signals from the new owner keep arriving.
public final class DBusNotificationServer: NotificationServer {
    /// The well-known bus name.
    public static let busName = "org.freedesktop.Notifications"
    /// The object path.
    public static let path: DBusObjectPath = "/org/freedesktop/Notifications"
    /// The interface.
    public static let interface = "org.freedesktop.Notifications"

    private let connection: DBusConnection
    private let callTimeout: Duration
    private let hub = EventHub<NotificationEvent>()
    private let subscriptions = Mutex<[DBusSignalSubscription]>([])

    /// Listens to the server on `connection`; calls give up after `callTimeout` (a hung server must not hang a session).
    public init(connection: DBusConnection, callTimeout: Duration = .seconds(3)) throws {
        self.connection = connection
        self.callTimeout = callTimeout
        let hub = self.hub
        let signals = try connection.addMatch(DBusMatchRule(sender: Self.busName, path: Self.path, interface: Self.interface)) { event in
            switch (event.member, event.arguments.count) {
            case ("ActionInvoked", 2):
                guard let id = event.arguments[0].uint32Value, let key = event.arguments[1].stringValue else { return }
                hub.send(.actionInvoked(id: id, key: key))
            case ("NotificationClosed", 2):
                guard let id = event.arguments[0].uint32Value, let reason = event.arguments[1].uint32Value else { return }
                hub.send(.closed(id: id, reason: CloseReason(code: reason)))
            case ("ActivationToken", 2):
                guard let id = event.arguments[0].uint32Value, let token = event.arguments[1].stringValue else { return }
                hub.send(.activationToken(id: id, token: token))
            default:
                return
            }
        }
        let owners = try connection.addMatch(.nameOwnerChanged(Self.busName)) { event in
            guard event.arguments.count == 3, let owner = event.arguments[2].stringValue else { return }
            hub.send(.ownerChanged(owner: owner.isEmpty ? nil : owner))
        }
        subscriptions.withLock { $0 = [signals, owners] }
        connection.onDisconnect { hub.send(.ownerChanged(owner: nil)) }
    }

    /// Connects to the session bus and listens to its notification server.
    public convenience init(callTimeout: Duration = .seconds(3)) throws {
        try self.init(connection: DBusConnection(bus: .session), callTimeout: callTimeout)
    }

    deinit {
        for subscription in subscriptions.withLock({ $0 }) { subscription.cancel() }
        hub.finish()
    }

    /// The unique name of the server's current owner, or nil when no server runs.
    public func currentOwner() async -> String? {
        try? connection.nameOwner(Self.busName)
    }

    public func serverInformation() async throws -> ServerInformation {
        let reply = try await call("GetServerInformation")
        guard reply.count == 4, let name = reply[0].stringValue, let vendor = reply[1].stringValue,
              let version = reply[2].stringValue, let spec = reply[3].stringValue else {
            throw NotificationServerError.failed("GetServerInformation answered \(reply)")
        }
        return ServerInformation(name: name, vendor: vendor, version: version, specVersion: spec)
    }

    public func capabilities() async throws -> Set<String> {
        let reply = try await call("GetCapabilities")
        guard let caps = reply.first?.stringArrayValue else {
            throw NotificationServerError.failed("GetCapabilities answered \(reply)")
        }
        return Set(caps)
    }

    public func notify(_ request: NotificationRequest) async throws -> UInt32 {
        let actions = request.actions.flatMap { [$0.key, $0.label] }
        let reply = try await call("Notify", [
            .string(request.appName), .uint32(request.replacesID), .string(request.appIcon),
            .string(request.summary), .string(request.body), .strings(actions),
            .vardict(request.hints), .int32(request.expireTimeout),
        ])
        guard let id = reply.first?.uint32Value else { throw NotificationServerError.failed("Notify answered \(reply)") }
        return id
    }

    public func closeNotification(id: UInt32) async throws {
        do {
            _ = try await call("CloseNotification", [.uint32(id)])
        } catch NotificationServerError.failed {
            // The spec answers an unknown id with an (empty) error: the notification is gone, which is what we wanted.
        }
    }

    public func events() -> AsyncStream<NotificationEvent> { hub.stream() }

    private func call(_ method: String, _ arguments: [DBusValue] = []) async throws -> [DBusValue] {
        do {
            return try await connection.call(destination: Self.busName, path: Self.path, interface: Self.interface,
                                             method: method, arguments: arguments, timeout: callTimeout)
        } catch let error as DBusError {
            // A call that timed out while nobody owns the name was waiting for a server that never started.
            if error.isTimeout, (try? connection.nameOwner(Self.busName)) == nil {
                throw NotificationServerError.unavailable("no notification server started (\(error.name))")
            }
            throw Self.map(error)
        }
    }

    /// Sorts D-Bus errors into "no server", "flood guard" and everything else.
    ///
    /// No owner, no bus, and a server the bus could not start (D-Bus activation's `Spawn.*` errors: the
    /// service file's program is missing, failed or exited) all mean "no server": the surface then waits for
    /// one to appear instead of retrying into the void.
    static func map(_ error: DBusError) -> NotificationServerError {
        let absent = [DBusError.Name.serviceUnknown, DBusError.Name.nameHasNoOwner, DBusError.Name.disconnected,
                      "org.freedesktop.DBus.Error.NoServer"]
        if absent.contains(error.name) || error.name.hasPrefix("org.freedesktop.DBus.Error.Spawn.") {
            return .unavailable(error.message.isEmpty ? error.name : error.message)
        }
        if error.name == "org.freedesktop.Notifications.Error.ExcessNotificationGeneration" { return .rateLimited }
        return .failed(error.description)
    }
}
