import EngramClient
import EngramCore
import Foundation
import EngramApp
import Indexer
import Notifier

/// The glue between commands and live notifications: connecting, hosting a `LiveSession`, handing off timers.
enum Live {
    /// The session bus, or nil (with a one-line note unless `quiet`) when there is none.
    static func connect(quiet: Bool = false) -> SessionBus? {
        do {
            return try SessionBus()
        } catch {
            if !quiet { Terminal.warn("no session bus (\(error)); going on without a live notification") }
            return nil
        }
    }

    /// Whether live notifications are switched off in the config (`[privacy] notifications = false`).
    static func switchedOff(_ library: Library) -> Bool {
        library.config.disabledIntegrations.contains("notifications")
    }

    /// A controller for one session on `bus`. With `deferToDaemon` (a learning session), it
    /// shows the session only while no daemon runs and no other live process shows it, taking over when they go.
    static func follow(_ session: Session, library: Library, bus: SessionBus,
                       options: LiveSession.Options = .init(), deferToDaemon: Bool = false) -> LiveSession? {
        let surfaces: LiveSession.SurfaceFactory
        do {
            surfaces = try bus.liveSurfaces()
        } catch {
            Terminal.warn("cannot follow notifications on the session bus (\(error)); going on without a live notification")
            return nil
        }
        let mayHost: @Sendable () -> Bool = { !deferToDaemon || !bus.daemonRuns }
        return LiveSession(
            store: library.store, scope: .session(id: session.id), options: options, surfaces: surfaces,
            perform: { link in _ = try LinkHandler(library: library, source: "notification").perform(link) },
            opener: ProcessLinkOpener(report: { Terminal.warn($0) }),
            notice: { Terminal.warn($0) },
            mayHost: mayHost)
    }

    /// Says which captures were found interrupted (their process died) and takes down the notifications
    /// those processes left on screen.
    static func reportInterrupted(_ sessions: [Session], bus: SessionBus?) {
        for s in sessions {
            let n = s.progressDone
            Terminal.warn("capture “\(Terminal.safe(s.title))” (\(s.id)) was interrupted: its process ended before its input did; "
                          + "its \(n) memor\(n == 1 ? "y is" : "ies are") saved")
        }
        let stale = sessions.compactMap { $0.notification.flatMap(NotificationHandOff.init(encoded:)) }
        guard !stale.isEmpty, let bus else { return }
        _ = try? wait { for handOff in stale { await bus.closeNotification(handOff) } }
    }

    /// Hands the timed dismissals still pending to a detached `engram` helper, so this process can exit;
    /// the helper also answers the notification's Open until then.
    static func handOffDismissals(of live: LiveSession) async {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        for handOff in await live.handOffDismissals() {
            let remaining = handOff.remaining.components
            var arguments = ["notification-close", "--id", String(handOff.notification.id),
                             "--after", String(Double(remaining.seconds) + Double(remaining.attoseconds) / 1e18)]
            if let owner = handOff.notification.serverOwner { arguments += ["--server", owner] }
            if let link = handOff.openLink { arguments += ["--open", link] }
            do {
                try Spawner.start(executable, arguments)
            } catch {
                Terminal.warn("the notification stays until you close it: \(error)")
            }
        }
    }

    /// Runs async work from a synchronous command and waits for it.
    static func wait<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<T>()
        Task {
            do { box.set(.success(try await body())) } catch { box.set(.failure(error)) }
            done.signal()
        }
        done.wait()
        return try box.get()
    }

    /// Calls `handler` on SIGINT and SIGTERM instead of dying, until the returned sources are dropped.
    static func onInterrupt(_ handler: @escaping @Sendable () -> Void) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: handler)
            source.resume()
            return source
        }
    }
}

/// A result handed from a task to a waiting thread.
final class ResultBox<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<T, any Error>?
    func set(_ r: Result<T, any Error>) { lock.withLock { result = r } }
    func get() throws -> T { try lock.withLock { result! }.get() }
}
