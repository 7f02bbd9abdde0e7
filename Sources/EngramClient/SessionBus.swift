import DBus
import EngramCore
import Notifier

/// The session bus as commands use it: live notifications, whether the daemon runs, closing notifications.
public final class SessionBus: Sendable {
    private let connection: DBusConnection

    /// Connects to the session bus; throws when there is none (a console login, a cron job).
    public init() throws {
        connection = try DBusConnection(bus: .session)
    }

    /// Whether an Engram daemon runs on this bus (it then shows every learning session).
    public var daemonRuns: Bool {
        (try? connection.nameOwner(EngramBus.name)) != nil
    }

    /// The live surfaces that suit this desktop: a KDE job view or a notification.
    public func liveSurfaces() throws -> LiveSession.SurfaceFactory {
        try LiveSurfaces.automatic(connection: connection)
    }

    /// Takes `handOff`'s notification down after `delay`, opening `openLink` if it is clicked meanwhile.
    public func closeNotification(_ handOff: NotificationHandOff, after delay: Duration = .zero, openLink: String? = nil) async {
        await NotificationCloser.close(handOff, after: delay, connection: connection, openLink: openLink)
    }

    /// Shows (or, with `replacing`, updates) a plain notification and returns its id: what push-to-talk says while
    /// it listens and what it heard. Blocks up to two seconds for the server; nil when none answers. The text is
    /// escaped for servers that read body markup.
    public func notice(_ summary: String, body: String = "", replacing: UInt32 = 0, transient: Bool = true) -> UInt32? {
        let reply = try? connection.call(
            destination: DBusNotificationServer.busName, path: DBusNotificationServer.path, interface: DBusNotificationServer.interface,
            method: "Notify",
            arguments: [.string("Engram"), .uint32(replacing), .string("audio-input-microphone"), .string(summary),
                        .string(Markup.escape(body, quotes: false)), .strings([]),
                        .vardict(["desktop-entry": .string(EngramBus.desktopEntry), "transient": .boolean(transient),
                                  "category": .string("device")]),
                        .int32(-1)],
            timeout: .seconds(2))
        return reply?.first?.uint32Value
    }

    /// Closes the notification `id` (nothing if it is gone already).
    public func closeNotice(_ id: UInt32) {
        _ = try? connection.call(destination: DBusNotificationServer.busName, path: DBusNotificationServer.path,
                                 interface: DBusNotificationServer.interface, method: "CloseNotification",
                                 arguments: [.uint32(id)], timeout: .seconds(2))
    }

    /// Tells the daemon (if one runs) that push-to-talk started or stopped, so its `Listening` property follows at once.
    public func listeningChanged() {
        guard daemonRuns else { return }  // never started for this
        _ = try? connection.call(destination: EngramBus.name, path: DBusObjectPath(stringLiteral: EngramBus.appPath), interface: EngramBus.appInterface,
                                 method: "ListeningChanged", timeout: .seconds(1))
    }

    /// Closes the connection; it also closes when the last reference goes.
    public func close() {
        connection.close()
    }
}
