import DBus
import Logging
import ServiceLifecycle
import UnixSignals

/// What stops the daemon, in one place: SIGTERM (systemd) or SIGINT (Ctrl+C), or the loss of the session bus.
/// Its `run` returns when one of them happens, and the group, configured to shut down gracefully when this service
/// finishes, stops the others in reverse order: live notifications down, chores, watcher, glance, search, and the
/// index keeper last, which commits what is pending and lets go of the writer.
final class StopRequests: Service, @unchecked Sendable {
    private let connection: DBusConnection
    private let log: Logger

    init(connection: DBusConnection, log: Logger) {
        self.connection = connection
        self.log = log
    }

    func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sigterm, .sigint)
        let (disconnected, lost) = AsyncStream.makeStream(of: Void.self)
        connection.onDisconnect { lost.yield() }
        enum Reason: Sendable { case signal(String), bus, shutdown }
        let reason = await withTaskGroup(of: Reason.self) { group in
            group.addTask {
                for await signal in signals { return .signal(signal == .sigterm ? "SIGTERM" : "SIGINT") }
                return .shutdown
            }
            group.addTask {
                for await _ in disconnected.cancelOnGracefulShutdown() { return .bus }
                return .shutdown
            }
            let first = await group.next() ?? .shutdown
            group.cancelAll()
            return first
        }
        switch reason {
        case .signal(let name): log.info("stopping", metadata: ["signal": "\(name)"])
        case .bus: log.warning("the session bus went away; stopping")
        case .shutdown: break
        }
    }
}
