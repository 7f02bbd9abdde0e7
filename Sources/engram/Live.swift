import DBus
import EngramCore
import Foundation
import Indexer
import Notifier

/// The glue between commands and live notifications: connecting, hosting a `LiveSession`, handing off timers.
enum Live {
    /// A controller for one session on the session bus, or nil (with a one-line note) when there is no bus.
    static func follow(_ session: Session, library: Library, options: LiveSession.Options = .init()) -> LiveSession? {
        let surfaces: LiveSession.SurfaceFactory
        do {
            surfaces = try LiveSurfaces.automatic(connection: DBusConnection(bus: .session))
        } catch {
            Terminal.warn("no session bus (\(error)); going on without a live notification")
            return nil
        }
        return LiveSession(
            store: library.store, scope: .session(id: session.id), options: options, surfaces: surfaces,
            perform: { link in _ = try LinkHandler(library: library, source: "notification").perform(link) },
            notice: { Terminal.warn($0) })
    }

    /// Hands the timed dismissals still pending to a detached `engram` helper, so this process can exit.
    static func handOffDismissals(of live: LiveSession) async {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        for (handOff, remaining) in await live.handOffDismissals() {
            var arguments = ["notification-close", "--id", String(handOff.id),
                             "--after", String(Double(remaining.components.seconds) + Double(remaining.components.attoseconds) / 1e18)]
            if let owner = handOff.serverOwner { arguments += ["--server", owner] }
            do {
                try NotificationCloser.spawnDetached(executable, arguments)
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
