import DBus
import Dispatch
import EngramCore
import Foundation
import Intents
import Notifier
import Indexer
import Logging
import Synchronization

/// `engram daemon`: owns `org.engram.Engram` on the session bus, serves GNOME Shell, KRunner and
/// `org.engram.Engram1`, and is the index writer while it runs.
///
/// It applies the store's outbox when nudged (`Sync`, or any capture through the bus), when the store's
/// WAL file changes (inotify, the safety net) and every `applyInterval`; it sweeps faded items from the index
/// `firstSweepDelay` after it starts serving (so a daemon that lives a few minutes still sweeps), then every
/// `sweepInterval` (`[daemon] sweep_interval` in config). SIGTERM or SIGINT stop it gracefully: pending changes
/// are committed, the writer and the name are released. A second instance finds the name taken, says so and
/// exits with status 0.
public final class EngramDaemon: @unchecked Sendable {
    /// How the daemon runs.
    public struct Options: Sendable {
        /// Where the collection lives.
        public var paths: EngramPaths
        /// How often pending changes are applied even without a nudge.
        public var applyInterval: Duration = .seconds(30)
        /// How often faded items are swept from the index, unless config says otherwise.
        public var sweepInterval: Duration = .seconds(3600)
        /// How long after the daemon starts serving the first sweep runs (or `sweepInterval`, if shorter): long
        /// enough to leave alone the burst of searches that started it (a sweep's commit drops their cached results).
        public var firstSweepDelay: Duration = .seconds(60)
        /// How often a writer held by another process is tried again.
        public var writerRetryInterval: Duration = .seconds(1)

        /// Options for a data folder, with the default intervals.
        public init(paths: EngramPaths) {
            self.paths = paths
        }
    }

    /// Exit statuses (sysexits.h).
    public enum Status {
        public static let ok: Int32 = 0
        public static let unavailable: Int32 = 69
        public static let ioError: Int32 = 74
        public static let config: Int32 = 78
    }

    private let options: Options
    private let log: Logger
    private let stopRequested = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)
    private let timerQueue = DispatchQueue(label: "org.engram.daemon.timers", qos: .utility)

    /// Creates a daemon; `run()` starts it.
    public init(options: Options, log: Logger) {
        self.options = options
        self.log = log
    }

    /// Runs until SIGTERM, SIGINT or the loss of the bus, and returns the exit status.
    public func run() -> Int32 {
        Heap.returnLargeBlocksToTheSystem()
        let connection: DBusConnection
        do {
            connection = try Self.connect()
        } catch {
            log.error("cannot connect to the session bus; the daemon serves desktop search over D-Bus and needs one",
                      metadata: ["error": "\(error)"])
            return Status.unavailable
        }
        defer { connection.close() }

        if let owner = try? connection.nameOwner(DaemonBus.name) {
            let pid = Self.pid(of: owner, on: connection).map { " as pid \($0)" } ?? ""
            log.notice("an Engram daemon is already running\(pid) on this bus; nothing to do")
            return Status.ok
        }

        let library: Library
        let settings: DesktopSettings
        do {
            library = try Library(paths: options.paths)
            library.notice = { [log] in log.notice("\($0)") }
            settings = try DesktopSettings.parse(library.config.rawTOML, origin: options.paths.configPath)
        } catch let error as EngramError {
            log.error("cannot open the collection", metadata: ["error": "\(error)"])
            return error.exitCode == 78 ? Status.config : Status.ioError
        } catch {
            log.error("cannot open the collection", metadata: ["error": "\(error)"])
            return Status.ioError
        }

        let environment = ProcessInfo.processInfo.environment
        let launcher = TerminalLauncher(
            terminal: TerminalLauncher.detect(configured: settings.terminal, environment: environment),
            engram: Self.executablePath(), dataDirectory: options.paths.dataDirectory,
            useSystemdScope: environment["INVOCATION_ID"] != nil && TerminalLauncher.resolve("systemd-run") != nil,
            log: log)
        let service = EngramService(library: library, settings: settings, launcher: launcher, log: log)

        if !service.keeper.start() {
            log.notice("another Engram process is writing the index; the daemon takes over when it is done")
        }
        do {
            try service.loadGlance()
            service.attach(connection)
            try connection.export(Engram1.interface(service), at: DaemonBus.appPath)
            try connection.export(SearchProvider2.interface(service), at: DaemonBus.searchProviderPath)
            try connection.export(KRunner1.interface(service), at: DaemonBus.runnerPath)
        } catch {
            log.error("cannot start serving", metadata: ["error": "\(error)"])
            service.keeper.close()
            return Status.ioError
        }

        do {
            switch try connection.requestName(DaemonBus.name) {
            case .primaryOwner, .alreadyOwner:
                break
            case .exists, .inQueue:
                log.notice("an Engram daemon started at the same moment is running; nothing to do")
                service.keeper.close()
                return Status.ok
            }
        } catch {
            log.error("cannot own \(DaemonBus.name) on the session bus", metadata: ["error": "\(error)"])
            service.keeper.close()
            return Status.unavailable
        }

        let store = (options.paths.storePath as NSString).lastPathComponent
        let watcher = StoreWatcher(directory: options.paths.dataDirectory, files: [store, store + "-wal"], queue: timerQueue,
                                   useInotify: environment["ENGRAM_TEST_NO_INOTIFY"] == nil) { [service] in
            service.keeper.requestApply()
            service.refreshGlance()
        }
        if case .polling(let reason) = watcher.mode {
            log.notice("checking the store for changes every 100 ms instead of with inotify", metadata: ["reason": "\(reason)"])
        }
        // Live activities: the learning session's updating notification (unless a live `--follow` shows it), and the
        // end of a capture whose process died; driven by the store's state machine.
        var liveTask: Task<Void, Never>?
        if library.config.disabledIntegrations.contains("notifications") {
            log.notice("live notifications are switched off in config ([privacy] notifications = false)")
        } else {
            do {
                let live = LiveSession(store: library.store, scope: .active, surfaces: try LiveSurfaces.automatic(connection: connection),
                                       perform: { link in _ = try LinkHandler(library: library, source: "notification").perform(link) },
                                       opener: ProcessLinkOpener(report: { [log] in log.warning("\($0)") }),
                                       notice: { [log] in log.notice("\($0)") })
                liveTask = Task { await live.run() }
            } catch {
                log.warning("live session notifications are unavailable", metadata: ["error": "\(error)"])
            }
        }
        // Results nobody is looking at (KRunner commands, delayed intents) arrive as notifications with follow-ups.
        if !library.config.disabledIntegrations.contains("notifications") {
            do {
                service.alerts = try IntentAlerts(connection: connection, store: library.store, log: log) { [service] invocation, done in
                    service.perform(.invocation(invocation), source: "notification", done: done)
                }
            } catch {
                log.warning("intent results cannot be shown as notifications", metadata: ["error": "\(error)"])
            }
        }
        var daemonRunner = IntentRunner(library: library, source: "daemon")
        daemonRunner.exportsOnlyToDataFolder = true
        let chores = Chores(delayed: DelayedIntentRunner(runner: daemonRunner),
                            contexts: ContextControl(store: library.store))
        let sweepInterval = settings.sweepInterval.map { Duration.seconds($0) } ?? options.sweepInterval
        let firstSweep = environment["ENGRAM_TEST_FIRST_SWEEP_MS"].flatMap(Int.init).map { Duration.milliseconds(max(50, $0)) }
            ?? options.firstSweepDelay
        let choreInterval = environment["ENGRAM_TEST_CHORE_MS"].flatMap(Int.init).map { Duration.milliseconds(max(50, $0)) } ?? .seconds(30)
        let timers = [
            repeating(choreInterval) { [log, service] in
                do {
                    let now = library.store.clock()
                    let ran = try chores.delayed.runDue(now: now)
                    for r in ran {
                        log.info("ran a delayed intent: \(r.sentence)")
                        if let result = r.result {
                            service.alerts?.show(result, delayedID: r.delayed.id)
                        } else {
                            service.alerts?.show(failure: r.error ?? "it failed",
                                                 title: r.delayed.phrase.map { "“\($0)”" } ?? r.delayed.intent, delayedID: r.delayed.id)
                        }
                    }
                    if !ran.isEmpty {
                        service.keeper.requestApply()
                        service.refreshGlance()
                    }
                    if let alerts = service.alerts {
                        for d in try library.store.intentsNeedingRealert(now: now) { alerts.realert(d, at: now) }
                    }
                    _ = try chores.contexts.sync()
                } catch {
                    log.warning("delayed intents could not run", metadata: ["error": "\(error)"])
                }
            },
            repeating(options.applyInterval) { [service] in
                service.keeper.requestApply()
                service.refreshGlance()
            },
            repeating(sweepInterval, first: min(firstSweep, sweepInterval)) { [service] in service.keeper.sweep() },
            repeating(options.writerRetryInterval) { [service] in service.keeper.retakeIfNeeded() },
        ]
        let signals = [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: timerQueue)
            source.setEventHandler { [weak self] in
                self?.log.info("stopping", metadata: ["signal": "\(number == SIGTERM ? "SIGTERM" : "SIGINT")"])
                self?.requestStop()
            }
            source.resume()
            return source
        }
        signal(SIGPIPE, SIG_IGN)
        connection.onDisconnect { [weak self] in
            self?.log.warning("the session bus went away; stopping")
            self?.requestStop()
        }
        service.keeper.requestApply()
        service.refreshGlance()
        log.info("ready", metadata: ["name": "\(DaemonBus.name)", "data": "\(options.paths.dataDirectory)",
                                     "pid": "\(getpid())"])

        stopRequested.wait()

        for timer in timers { timer.cancel() }
        if let liveTask {
            // Take live notifications down before the bus closes.
            liveTask.cancel()
            let done = DispatchSemaphore(value: 0)
            Task { await liveTask.value; done.signal() }
            _ = done.wait(timeout: .now() + 2)
        }
        watcher.cancel()
        service.alerts?.cancel()
        service.keeper.close()
        service.search.sync { $0.closeReader() }
        if connection.isConnected { _ = try? connection.releaseName(DaemonBus.name) }
        for source in signals { source.cancel() }
        log.info("stopped; the index is committed and the name released")
        return Status.ok
    }

    /// Asks `run()` to stop (as SIGTERM does); safe to call more than once.
    public func requestStop() {
        if !stopping.exchange(true, ordering: .acquiringAndReleasing) { stopRequested.signal() }
    }

    /// A timer firing every `interval` on the timer queue, the first time after `first` (by default `interval`).
    private func repeating(_ interval: Duration, first: Duration? = nil, _ body: @escaping @Sendable () -> Void) -> DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: timerQueue)
        func ms(_ d: Duration) -> Int { Int(d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000) }
        let start = ms(first ?? interval)
        // The leeway follows the first delay, so an early first run is not put off by a long interval's leeway.
        timer.schedule(deadline: .now() + .milliseconds(start), repeating: .milliseconds(ms(interval)), leeway: .milliseconds(start / 10 + 1))
        timer.setEventHandler(handler: body)
        timer.resume()
        return timer
    }

    /// The bus that activated us (`DBUS_STARTER_ADDRESS`), else the session bus.
    static func connect() throws -> DBusConnection {
        let env = ProcessInfo.processInfo.environment
        if let starter = env["DBUS_STARTER_ADDRESS"], !starter.isEmpty, env["DBUS_STARTER_BUS_TYPE"] != "system" {
            return try DBusConnection(address: starter)
        }
        return try DBusConnection(bus: .session)
    }

    /// The process id behind a unique name, for the "already running" message.
    static func pid(of owner: String, on connection: DBusConnection) -> UInt32? {
        let reply = try? connection.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                         interface: "org.freedesktop.DBus", method: "GetConnectionUnixProcessID",
                                         arguments: [.string(owner)], timeout: .seconds(2))
        return reply?.first?.uint32Value
    }

    /// This program's absolute path, so terminals run the same `engram` as the daemon.
    static func executablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}

/// The daemon's half-minute chores: due delayed intents and following do-not-disturb.
/// Only the daemon's serial timer queue touches them.
private final class Chores: @unchecked Sendable {
    let delayed: DelayedIntentRunner
    let contexts: ContextControl
    init(delayed: DelayedIntentRunner, contexts: ContextControl) {
        self.delayed = delayed
        self.contexts = contexts
    }
}
