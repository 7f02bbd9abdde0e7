import DBus

/// A client of KDE's job progress server, `org.kde.JobViewServer` at `/JobViewServer` — on Plasma a better
/// home for a live activity than a notification: a real progress bar with Pause, Resume and Cancel.
///
///     org.kde.JobViewServerV2.requestView(s desktopEntry, i capabilities, a{sv} hints) → o   (a JobViewV3)
///     org.kde.JobViewServer.requestView(s appName, s appIconName, i capabilities) → o         (a JobViewV2, older servers)
///
/// Capabilities: 0x1 cancellable, 0x2 suspendable.
public final class DBusJobViewServer: JobViewService {
    /// The well-known bus name.
    public static let busName = "org.kde.JobViewServer"
    /// The object path.
    public static let path: DBusObjectPath = "/JobViewServer"
    /// The current interface.
    public static let interfaceV2 = "org.kde.JobViewServerV2"
    /// The legacy interface.
    public static let interface = "org.kde.JobViewServer"

    private let connection: DBusConnection
    private let callTimeout: Duration
    private let hub = EventHub<String?>()
    private let subscription: DBusSignalSubscription

    /// Talks to the job view server on `connection`.
    public init(connection: DBusConnection, callTimeout: Duration = .seconds(3)) throws {
        self.connection = connection
        self.callTimeout = callTimeout
        let hub = self.hub
        subscription = try connection.addMatch(.nameOwnerChanged(Self.busName)) { event in
            guard event.arguments.count == 3, let owner = event.arguments[2].stringValue else { return }
            hub.send(owner.isEmpty ? nil : owner)
        }
    }

    deinit {
        subscription.cancel()
        hub.finish()
    }

    /// Whether a job view server runs on `connection`'s bus now.
    public static func isRunning(on connection: DBusConnection) -> Bool {
        (try? connection.nameOwner(busName)) != nil
    }

    public func requestView(desktopEntry: String, appName: String, icon: String,
                            capabilities: JobViewCapabilities) async throws -> any JobView {
        let path: DBusObjectPath
        do {
            let reply = try await connection.call(
                destination: Self.busName, path: Self.path, interface: Self.interfaceV2, method: "requestView",
                arguments: [.string(desktopEntry), .int32(capabilities.rawValue), .vardict([:])], timeout: callTimeout)
            guard let p = reply.first?.objectPathValue else { throw NotificationServerError.failed("requestView answered \(reply)") }
            return try DBusJobView(.v3, connection: connection, path: p, callTimeout: callTimeout)
        } catch let error as DBusError where error.name == DBusError.Name.unknownMethod || error.name == DBusError.Name.unknownInterface {
            // An older server: the first interface, whose views speak JobViewV2.
            do {
                let reply = try await connection.call(
                    destination: Self.busName, path: Self.path, interface: Self.interface, method: "requestView",
                    arguments: [.string(appName), .string(icon), .int32(capabilities.rawValue)], timeout: callTimeout)
                guard let p = reply.first?.objectPathValue else { throw NotificationServerError.failed("requestView answered \(reply)") }
                path = p
            } catch let error as DBusError {
                throw DBusNotificationServer.map(error)
            }
        } catch let error as DBusError {
            throw DBusNotificationServer.map(error)
        }
        return try DBusJobView(.v2, connection: connection, path: path, callTimeout: callTimeout)
    }

    public func ownerChanges() -> AsyncStream<String?> { hub.stream() }
}

/// KDE's job view server: the outside edge of `JobViewSurface`.
public protocol JobViewService: Sendable {
    /// Asks for a new job view.
    func requestView(desktopEntry: String, appName: String, icon: String, capabilities: JobViewCapabilities) async throws -> any JobView
    /// The server's arrivals (its new owner) and departures (nil).
    func ownerChanges() -> AsyncStream<String?>
}

/// One job view: a progress entry in Plasma's notification area.
public protocol JobView: Sendable {
    /// Sets the view's fields.
    func update(_ properties: JobViewProperties) async throws
    /// Ends the job; the view moves to the history.
    func terminate(errorCode: UInt32, message: String) async throws
    /// What the person asked for with the view's buttons.
    func requests() -> AsyncStream<JobViewRequest>
}

/// What a job view may do (`requestView`'s capabilities).
public struct JobViewCapabilities: OptionSet, Sendable {
    /// The raw bits.
    public let rawValue: Int32
    /// Creates capabilities from raw bits.
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// It can be cancelled (a Stop button).
    public static let cancellable = JobViewCapabilities(rawValue: 0x1)
    /// It can be suspended and resumed.
    public static let suspendable = JobViewCapabilities(rawValue: 0x2)
}

/// A button pressed on a job view.
public enum JobViewRequest: Sendable, Equatable {
    case suspend, resume, cancel
}

/// The fields of a job view (JobViewV3 `update` keys).
public struct JobViewProperties: Sendable, Equatable {
    /// `title`.
    public var title: String
    /// `infoMessage`: the state in a word or two.
    public var infoMessage: String
    /// `percent`.
    public var percent: UInt32?
    /// `descriptionLabel1` and `descriptionValue1`.
    public var description1: (label: String, value: String)?
    /// `descriptionLabel2` and `descriptionValue2`.
    public var description2: (label: String, value: String)?
    /// `processedItems` and `totalItems`.
    public var items: (processed: UInt64, total: UInt64)?
    /// `suspended`.
    public var suspended: Bool

    /// Creates fields.
    public init(title: String, infoMessage: String, percent: UInt32? = nil, description1: (label: String, value: String)? = nil,
                description2: (label: String, value: String)? = nil, items: (processed: UInt64, total: UInt64)? = nil,
                suspended: Bool = false) {
        self.title = title
        self.infoMessage = infoMessage
        self.percent = percent
        self.description1 = description1
        self.description2 = description2
        self.items = items
        self.suspended = suspended
    }

    public static func == (a: JobViewProperties, b: JobViewProperties) -> Bool {
        a.title == b.title && a.infoMessage == b.infoMessage && a.percent == b.percent
            && a.description1?.label == b.description1?.label && a.description1?.value == b.description1?.value
            && a.description2?.label == b.description2?.label && a.description2?.value == b.description2?.value
            && a.items?.processed == b.items?.processed && a.items?.total == b.items?.total && a.suspended == b.suspended
    }
}
