import Daemon
import DBus
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
        (try? connection.nameOwner(DaemonBus.name)) != nil
    }

    /// The live surfaces that suit this desktop: a KDE job view or a notification.
    public func liveSurfaces() throws -> LiveSession.SurfaceFactory {
        try LiveSurfaces.automatic(connection: connection)
    }

    /// Takes `handOff`'s notification down after `delay`, opening `openLink` if it is clicked meanwhile.
    public func closeNotification(_ handOff: NotificationHandOff, after delay: Duration = .zero, openLink: String? = nil) async {
        await NotificationCloser.close(handOff, after: delay, connection: connection, openLink: openLink)
    }

    /// Closes the connection; it also closes when the last reference goes.
    public func close() {
        connection.close()
    }
}
