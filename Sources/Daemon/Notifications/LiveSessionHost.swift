import Notifier
import ServiceLifecycle

/// Live activities in the daemon: the learning session's updating notification (unless a live `--follow` shows
/// it), and the end of a capture whose process died, driven by the store's state machine. At shutdown the
/// notifications are taken down before the bus closes.
final class LiveSessionHost: Service, @unchecked Sendable {
    private let live: LiveSession

    init(_ live: LiveSession) {
        self.live = live
    }

    func run() async throws {
        await cancelOnGracefulShutdown { [live] in await live.run() }
    }
}
