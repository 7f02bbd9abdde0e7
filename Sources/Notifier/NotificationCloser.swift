import DBus
import Foundation

/// Takes a notification down after a delay from a separate process, so a command can exit while its
/// notification still goes away on time (GNOME ignores `expire_timeout`; the timer has to be ours).
public enum NotificationCloser {
    /// Waits until `delay` has passed, then closes the notification — unless it closed already or the server
    /// that showed it is gone (an id means nothing to another server instance). Meanwhile a click or an Open
    /// press on it opens `openLink` with `opener` (the process that showed it has exited).
    public static func close(_ handOff: NotificationHandOff, after delay: Duration,
                             connection: DBusConnection, openLink: String? = nil,
                             opener: any LinkOpener = ProcessLinkOpener()) async {
        let closed = AsyncStream<Void>.makeStream()
        let server: DBusNotificationServer
        do { server = try DBusNotificationServer(connection: connection) } catch { return }
        let watcher = Task {
            var token: String?
            for await event in server.events() {
                switch event {
                case .closed(let id, _) where id == handOff.id: closed.continuation.yield(); return
                case .ownerChanged: closed.continuation.yield(); return
                case .activationToken(let id, let given) where id == handOff.id: token = given
                case .actionInvoked(let id, let key) where id == handOff.id && (key == "default" || key == "open"):
                    if let openLink { try? opener.open(openLink, activationToken: token) }
                    token = nil
                default: continue
                }
            }
        }
        guard await server.currentOwner() == handOff.serverOwner else { watcher.cancel(); return }
        let timer = Task {
            try? await Task.sleep(for: delay)
            closed.continuation.yield()
        }
        for await _ in closed.stream { break }
        timer.cancel()
        watcher.cancel()
        guard await server.currentOwner() == handOff.serverOwner else { return }
        try? await server.closeNotification(id: handOff.id)
    }
}
