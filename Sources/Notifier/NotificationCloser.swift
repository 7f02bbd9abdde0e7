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

    /// Starts `executable arguments…` in its own session, detached from the terminal, with no input or output.
    public static func spawnDetached(_ executable: String, _ arguments: [String]) throws {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // POSIX_SPAWN_SETSID (glibc ≥ 2.26): a new session, so closing the terminal does not take it down.
        posix_spawnattr_setflags(&attributes, Int16(0x80))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd in Int32(0)...2 {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        // Close everything else the helper would inherit: a pipe held open keeps whoever reads our output waiting.
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap({ Int32($0) }) where fd > 2 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard rc == 0 else {
            throw NotificationServerError.failed("could not start \(executable): \(String(cString: strerror(rc)))")
        }
    }
}
