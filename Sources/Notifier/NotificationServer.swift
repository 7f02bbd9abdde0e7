import DBus
import Synchronization

/// A desktop notification server: the outside edge the notifier talks to.
///
/// `DBusNotificationServer` is the real one (`org.freedesktop.Notifications` on the session bus);
/// `InMemoryNotificationServer` is its twin for tests that need no bus.
public protocol NotificationServer: Sendable {
    /// Who the server is (`GetServerInformation`).
    func serverInformation() async throws -> ServerInformation
    /// What the server can do (`GetCapabilities`).
    func capabilities() async throws -> Set<String>
    /// Shows or replaces a notification and returns the id the server gave it (`Notify`).
    func notify(_ request: NotificationRequest) async throws -> UInt32
    /// Closes a notification (`CloseNotification`); closing one that is gone is not an error.
    func closeNotification(id: UInt32) async throws
    /// A new stream of the server's signals and of its arrivals and departures; each call gets its own.
    func events() -> AsyncStream<NotificationEvent>
    /// The unique bus name of the server running now, or nil when none is.
    func currentOwner() async -> String?
}

/// The answer to `GetServerInformation`.
public struct ServerInformation: Sendable, Equatable {
    /// The product, such as `dunst`, `gnome-shell` or `Plasma`.
    public var name: String
    /// The vendor.
    public var vendor: String
    /// The server's version.
    public var version: String
    /// The specification version it implements, such as `1.2`.
    public var specVersion: String

    /// Creates server information.
    public init(name: String, vendor: String, version: String, specVersion: String) {
        self.name = name
        self.vendor = vendor
        self.version = version
        self.specVersion = specVersion
    }
}

/// One button of a notification: the key reported by `ActionInvoked` and the label shown.
public struct NotificationAction: Sendable, Equatable {
    /// The key; `default` is the click on the notification itself.
    public var key: String
    /// The label.
    public var label: String

    /// Creates an action.
    public init(key: String, label: String) {
        self.key = key
        self.label = label
    }
}

/// The arguments of one `Notify` call.
public struct NotificationRequest: Sendable, Equatable {
    /// The application's name.
    public var appName: String
    /// The notification to replace, or 0 for a new one.
    public var replacesID: UInt32
    /// An icon name or `file://` URI.
    public var appIcon: String
    /// The one-line summary (always plain text).
    public var summary: String
    /// The body (markup only if the server advertises `body-markup`).
    public var body: String
    /// The buttons, in order.
    public var actions: [NotificationAction]
    /// Hints such as `value` (int32), `urgency` (byte), `transient` (bool).
    public var hints: [String: DBusValue]
    /// Milliseconds before it expires: -1 server default, 0 never.
    public var expireTimeout: Int32

    /// Creates a request.
    public init(appName: String, replacesID: UInt32 = 0, appIcon: String = "", summary: String, body: String = "",
                actions: [NotificationAction] = [], hints: [String: DBusValue] = [:], expireTimeout: Int32 = -1) {
        self.appName = appName
        self.replacesID = replacesID
        self.appIcon = appIcon
        self.summary = summary
        self.body = body
        self.actions = actions
        self.hints = hints
        self.expireTimeout = expireTimeout
    }

    /// The progress in percent carried by the `value` hint, if any.
    public var progressValue: Int32? { hints["value"]?.int32Value }
}

/// Why a notification closed (`NotificationClosed` reason).
public enum CloseReason: UInt32, Sendable {
    /// It expired.
    case expired = 1
    /// The user dismissed it.
    case dismissed = 2
    /// `CloseNotification` closed it.
    case closedByCall = 3
    /// The server gave no reason.
    case undefined = 4

    /// The reason for a raw value; unknown values are `undefined`.
    public init(code: UInt32) { self = CloseReason(rawValue: code) ?? .undefined }
}

/// Something the notification server told us.
public enum NotificationEvent: Sendable, Equatable {
    /// `ActionInvoked(id, key)`.
    case actionInvoked(id: UInt32, key: String)
    /// `NotificationClosed(id, reason)`.
    case closed(id: UInt32, reason: CloseReason)
    /// `ActivationToken(id, token)`, sent just before `ActionInvoked`.
    case activationToken(id: UInt32, token: String)
    /// The server's bus name changed owner: nil when it went away, the new owner when one (re)appeared.
    case ownerChanged(owner: String?)
}

/// Why a notification call failed.
public enum NotificationServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No server owns the name (and none can be started), or there is no bus.
    case unavailable(String)
    /// The server refused the call as a flood (KDE's `ExcessNotificationGeneration`).
    case rateLimited
    /// Any other failure, as the server or bus put it.
    case failed(String)

    /// What happened, in words.
    public var description: String {
        switch self {
        case .unavailable(let why): return "no notification server is available (\(why))"
        case .rateLimited: return "the notification server refused an update as too frequent"
        case .failed(let why): return "the notification server failed: \(why)"
        }
    }
}

/// Hands each event to every open stream; the edges share it.
final class EventHub<Event: Sendable>: Sendable {
    private let continuations = Mutex<[Int: AsyncStream<Event>.Continuation]>([:])
    private let counter = Atomic<Int>(0)

    /// A new stream that receives every later event until it is dropped or `finish()` is called.
    func stream() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .unbounded)
        let key = counter.add(1, ordering: .relaxed).newValue
        continuations.withLock { $0[key] = continuation }
        continuation.onTermination = { [weak self] _ in
            self?.continuations.withLock { _ = $0.removeValue(forKey: key) }
        }
        return stream
    }

    /// Delivers `event` to every open stream.
    func send(_ event: Event) {
        for continuation in continuations.withLock({ Array($0.values) }) { continuation.yield(event) }
    }

    /// Ends every stream.
    func finish() {
        for continuation in continuations.withLock({ Array($0.values) }) { continuation.finish() }
    }
}
