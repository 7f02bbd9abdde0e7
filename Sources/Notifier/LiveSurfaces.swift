import DBus
import EngramCore

/// Ready-made surface factories for `LiveSession`.
public enum LiveSurfaces {
    /// One notification per session on `server`, tagged with the session id.
    public static func notifications(_ server: any NotificationServer) -> LiveSession.SurfaceFactory {
        { session in NotificationSurface(server: server, renderer: NotificationRenderer(stackTag: "engram-session-\(session.id)")) }
    }

    /// KDE job views on `service`.
    public static func jobViews(_ service: any JobViewService) -> LiveSession.SurfaceFactory {
        { _ in JobViewSurface(service: service) }
    }

    /// What suits the desktop on `connection`'s bus: a KDE job view where `org.kde.JobViewServer` runs when
    /// the session starts, a notification everywhere else.
    public static func automatic(connection: DBusConnection) throws -> LiveSession.SurfaceFactory {
        let notifications = try DBusNotificationServer(connection: connection)
        let jobs = try DBusJobViewServer(connection: connection)
        return { session in
            if DBusJobViewServer.isRunning(on: connection) { return JobViewSurface(service: jobs) }
            return NotificationSurface(server: notifications,
                                       renderer: NotificationRenderer(stackTag: "engram-session-\(session.id)"))
        }
    }
}
