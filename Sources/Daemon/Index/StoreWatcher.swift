import Dispatch
import Foundation
import Glibc
import EngramCore
import Logging
import ServiceLifecycle
import Synchronization

/// Watches the store's files and calls back when another process writes to it: the daemon's safety net
/// for captures made without a nudge (an `engram` run with no session bus, an import script).
///
/// SQLite in WAL mode appends every committed transaction to `engram.sqlite-wal`, so a write to that
/// file (or to the store file, at a checkpoint) means the store may have changed. The watcher uses
/// inotify; when the user has run out of inotify instances (`fs.inotify.max_user_instances`, 128 on
/// Debian, shared by every program of the session), it checks the files' size and time every
/// `pollInterval` instead, which costs two `stat` calls.
final class StoreWatcher: @unchecked Sendable {
    /// How changes are noticed.
    enum Mode: Equatable {
        case inotify
        case polling(reason: String)
    }

    let mode: Mode
    /// The inotify watch, or the polling timer when inotify is unavailable.
    private let inotify: FolderWatch?
    private let source: (any DispatchSourceProtocol)?

    /// Starts watching the named `files` in `directory`; `onChange` runs on `queue`, for each change and once more
    /// `settle` after the last one.
    ///
    /// The second call is there because SQLite makes a transaction visible to readers after its last write to the
    /// WAL file (the commit marks it in the shared-memory index, which no watch sees): a pass that runs at once on
    /// the write's event can read the store before the commit is visible, find nothing new, and no later event
    /// would come. A capture by another program was then left unindexed until the periodic apply (30 s); one
    /// `DaemonTests` run caught it, under the load of the parallel tests.
    ///
    /// With `useInotify` false it polls from the start (tests use this to play a session out of inotify instances).
    init(directory: String, files: Set<String>, queue: DispatchQueue, pollInterval: Duration = .milliseconds(100),
         settle: Duration = .milliseconds(50), useInotify: Bool = true, onChange: @escaping @Sendable () -> Void) {
        let settler = Settler(queue: queue, delay: settle, onChange: onChange)
        let onChange: @Sendable () -> Void = { settler.noticed() }
        do {
            guard useInotify else { throw StoreWatcherError("inotify is switched off (ENGRAM_TEST_NO_INOTIFY)") }
            guard let watch = FolderWatch(queue: queue, names: files, mask: FolderWatch.writes, onEvent: onChange) else {
                throw StoreWatcherError("inotify is unavailable: \(String(cString: strerror(errno)))")
            }
            if let reason = watch.add(directory) {
                watch.cancel()
                throw StoreWatcherError("cannot watch \(directory) with inotify: \(reason)")
            }
            inotify = watch
            source = nil
            mode = .inotify
        } catch {
            let paths = files.sorted().map { directory + "/" + $0 }
            let last = Mutex(paths.map(FolderWatch.fingerprint))
            let timer = DispatchSource.makeTimerSource(queue: queue)
            let ms = Int(pollInterval.components.seconds * 1000 + pollInterval.components.attoseconds / 1_000_000_000_000_000)
            timer.schedule(deadline: .now() + .milliseconds(ms), repeating: .milliseconds(ms), leeway: .milliseconds(ms / 5 + 1))
            timer.setEventHandler {
                let now = paths.map(FolderWatch.fingerprint)
                let changed = last.withLock { previous -> Bool in
                    defer { previous = now }
                    return previous != now
                }
                if changed { onChange() }
            }
            timer.resume()
            inotify = nil
            source = timer
            mode = .polling(reason: "\(error)")
        }
    }

    /// Stops watching.
    func cancel() {
        inotify?.cancel()
        source?.cancel()
    }
}

/// Calls back at once for each change, and once more when `delay` has passed since the last one.
private final class Settler: Sendable {
    private let queue: DispatchQueue
    private let delay: DispatchTimeInterval
    private let onChange: @Sendable () -> Void
    /// When the last change was noticed, and whether a call after it is scheduled.
    private let state = Mutex<(last: DispatchTime, armed: Bool)>((.now(), false))

    init(queue: DispatchQueue, delay: Duration, onChange: @escaping @Sendable () -> Void) {
        self.queue = queue
        self.delay = .nanoseconds(Int(delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000))
        self.onChange = onChange
    }

    /// A change: called back now, and the call after the last change is scheduled if it is not yet.
    func noticed() {
        let arm = state.withLock { s -> Bool in
            s.last = .now()
            defer { s.armed = true }
            return !s.armed
        }
        onChange()
        if arm { settle(at: .now() + delay) }
    }

    private func settle(at deadline: DispatchTime) {
        queue.asyncAfter(deadline: deadline) {
            let later = self.state.withLock { s -> DispatchTime? in
                let due = s.last + self.delay
                if due > .now() { return due }
                s.armed = false
                return nil
            }
            if let later { self.settle(at: later) } else { self.onChange() }
        }
    }
}

/// A failure to set up inotify.
struct StoreWatcherError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The store watcher as a daemon service: another process's write to the store nudges the keeper (which indexes
/// it) and is posted as `.storeChanged` (the glance and search hear it).
final class StoreWatchService: Service, @unchecked Sendable {
    private let paths: EngramPaths
    private let keeper: IndexKeeper
    private let events: LibraryEvents
    private let log: Logger
    private let useInotify: Bool
    private let queue = DispatchQueue(label: "org.engram.daemon.store-watcher", qos: .utility)

    init(paths: EngramPaths, keeper: IndexKeeper, events: LibraryEvents, log: Logger, useInotify: Bool) {
        self.paths = paths
        self.keeper = keeper
        self.events = events
        self.log = log
        self.useInotify = useInotify
    }

    func run() async throws {
        let store = (paths.storePath as NSString).lastPathComponent
        let watcher = StoreWatcher(directory: paths.dataDirectory, files: [store, store + "-wal"], queue: queue,
                                   useInotify: useInotify) { [keeper, events] in
            keeper.requestApply()
            events.post(.storeChanged)
        }
        if case .polling(let reason) = watcher.mode {
            log.notice("checking the store for changes every 100 ms instead of with inotify", metadata: ["reason": "\(reason)"])
        }
        try? await gracefulShutdown()
        watcher.cancel()
    }
}
