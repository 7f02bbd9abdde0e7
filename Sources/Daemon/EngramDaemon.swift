import DBus
import Dispatch
import EngramCore
import Foundation
import EngramApp
import Indexer
import Intents
import Logging
import Notifier
import ServiceLifecycle

/// `engram daemon`: owns `org.engram.Engram` on the session bus, serves GNOME Shell, KRunner and
/// `org.engram.Engram1`, and is the index writer while it runs.
///
/// `run()` wires the parts and runs them as services under one `ServiceGroup`, in this order (they stop in the
/// reverse one):
/// - `IndexKeeper`: the index writer; applies the outbox when nudged and on its timers, sweeps, compacts; each commit
///   is posted on `LibraryEvents`;
/// - `SearchService`: the providers' searches on one reader, its cache dropped on every event;
/// - `GlanceService`: the `Engram1` properties, recomputed on every event;
/// - `StoreWatchService`: other processes' writes to the store (inotify), which nudge the keeper;
/// - `ChoresService`: delayed intents and do-not-disturb;
/// - `LiveSessionHost`: the learning session's live notification;
/// - `SyncService` (when `[sync] folder` is set): peers' changes from the sync folder in, this device's out;
/// - `HandoffService` (likewise): other devices' activities offered as notifications, sessions moved between devices;
/// - `StopRequests`: SIGTERM, SIGINT or the loss of the bus, which ends the group gracefully.
/// The bus interfaces (`Engram1`, `SearchProvider2`, `KRunner1`) call `SearchService`, `AppActions` and
/// `ResultActions`. A second instance finds the name taken, says so and exits with status 0.
public final class EngramDaemon: Sendable {
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

    /// Creates a daemon; `run()` starts it.
    public init(options: Options, log: Logger) {
        self.options = options
        self.log = log
    }

    /// Runs until SIGTERM, SIGINT or the loss of the bus, and returns the exit status.
    public func run() async -> Int32 {
        Heap.returnLargeBlocksToTheSystem()
        signal(SIGPIPE, SIG_IGN)
        let connection: DBusConnection
        do {
            connection = try Self.connect()
        } catch {
            log.error("cannot connect to the session bus; the daemon serves desktop search over D-Bus and needs one",
                      metadata: ["error": "\(error)"])
            return Status.unavailable
        }
        defer { connection.close() }

        if let owner = try? connection.nameOwner(EngramBus.name) {
            let pid = Self.pid(of: owner, on: connection).map { " as pid \($0)" } ?? ""
            log.notice("an Engram daemon is already running\(pid) on this bus; nothing to do")
            return Status.ok
        }

        let library: Library
        do {
            library = try Library(paths: options.paths)
            library.notice = { [log] in log.notice("\($0)") }
        } catch let error as EngramError {
            log.error("cannot open the collection", metadata: ["error": "\(error)"])
            return error.exitCode == 78 ? Status.config : Status.ioError
        } catch {
            log.error("cannot open the collection", metadata: ["error": "\(error)"])
            return Status.ioError
        }

        let settings = library.config.desktop
        let environment = ProcessInfo.processInfo.environment
        let hooks = TestHooks.current
        let events = LibraryEvents()
        let keeper = IndexKeeper(library: library, log: log, events: events, timing: IndexKeeper.Timing(
            applyInterval: options.applyInterval,
            sweepInterval: library.config.daemon.sweepInterval.map { Duration.seconds($0) } ?? options.sweepInterval,
            firstSweep: hooks.firstSweep ?? options.firstSweepDelay,
            writerRetryInterval: options.writerRetryInterval))
        let search = SearchService(library: library, log: log, events: events, indexStamp: { [keeper] in keeper.changeStamp }) {
            [keeper] why in keeper.repairIfDamaged(why)
        }
        let glance = GlanceService(library: library, log: log, events: events) { [keeper] in keeper.lastAppliedSeq }
        let app = AppActions(library: library, keeper: keeper, events: events, log: log)
        let launcher = TerminalLauncher(
            terminal: TerminalLauncher.detect(configured: settings.terminal, environment: environment),
            engram: Self.executablePath(), dataDirectory: options.paths.dataDirectory,
            useSystemdScope: environment["INVOCATION_ID"] != nil && TerminalLauncher.resolve("systemd-run") != nil,
            log: log)
        let appLauncher = AppLauncher.find(besides: Self.executablePath()).map {
            AppLauncher(executable: $0, dataDirectory: options.paths.dataDirectory, log: log)
        }
        let results = ResultActions(library: library, settings: settings, launcher: launcher, appLauncher: appLauncher, search: search,
                                    keeper: keeper, app: app, log: log)

        if !keeper.start() {
            log.notice("another Engram process is writing the index; the daemon takes over when it is done")
        }
        do {
            try glance.load()
            glance.attach(connection)
            results.attach(connection)
            try connection.export(Engram1.interface(app: app, results: results, search: search, glance: glance, keeper: keeper), at: DBusObjectPath(stringLiteral: EngramBus.appPath))
            try connection.export(SearchProvider2.interface(search: search, results: results), at: DBusObjectPath(stringLiteral: EngramBus.searchProviderPath))
            try connection.export(KRunner1.interface(search: search, results: results, settings: settings), at: DBusObjectPath(stringLiteral: EngramBus.runnerPath))
        } catch {
            log.error("cannot start serving", metadata: ["error": "\(error)"])
            keeper.close()
            return Status.ioError
        }

        do {
            switch try connection.requestName(EngramBus.name) {
            case .primaryOwner, .alreadyOwner:
                break
            case .exists, .inQueue:
                log.notice("an Engram daemon started at the same moment is running; nothing to do")
                keeper.close()
                return Status.ok
            }
        } catch {
            log.error("cannot own \(EngramBus.name) on the session bus", metadata: ["error": "\(error)"])
            keeper.close()
            return Status.unavailable
        }

        let live = notifications(connection: connection, library: library, app: app, results: results)

        let parts = Parts(keeper: keeper, search: search, glance: glance, results: results, launcher: launcher, events: events)
        let services = services(connection: connection, library: library, parts: parts, live: live, hooks: hooks)
        var configuration = ServiceGroupConfiguration(services: services, logger: log)
        configuration.maximumGracefulShutdownDuration = .seconds(30)
        let group = ServiceGroup(configuration: configuration)

        log.info("ready", metadata: ["name": "\(EngramBus.name)", "data": "\(options.paths.dataDirectory)", "pid": "\(getpid())"])
        var status = Status.ok
        do {
            try await group.run()
        } catch {
            log.error("a part of the daemon failed; stopping", metadata: ["error": "\(error)"])
            status = Status.ioError
        }
        events.finish()
        keeper.close()  // done already by its service, unless the group ended without it
        if connection.isConnected { _ = try? connection.releaseName(EngramBus.name) }
        log.info("stopped; the index is committed and the name released")
        return status
    }

    /// Results nobody is looking at (KRunner commands, delayed intents) arrive as notifications with follow-ups;
    /// live activities show the learning session. Both are off with `[privacy] notifications = false`.
    private func notifications(connection: DBusConnection, library: Library, app: AppActions, results: ResultActions) -> LiveSessionHost? {
        if library.config.disabledIntegrations.contains("notifications") {
            log.notice("live notifications are switched off in config ([privacy] notifications = false)")
            return nil
        }
        var live: LiveSessionHost?
        do {
            live = LiveSessionHost(LiveSession(
                store: library.store, scope: .active, surfaces: try LiveSurfaces.automatic(connection: connection),
                perform: { link in _ = try LinkHandler(library: library, source: "notification").perform(link) },
                opener: ProcessLinkOpener(report: { [log] in log.warning("\($0)") }),
                notice: { [log] in log.notice("\($0)") }))
        } catch {
            log.warning("live session notifications are unavailable", metadata: ["error": "\(error)"])
        }
        do {
            results.alerts = try IntentAlerts(connection: connection, store: library.store, log: log) { [app] invocation, done in
                app.perform(.invocation(invocation), source: "notification", done: done)
            }
        } catch {
            log.warning("intent results cannot be shown as notifications", metadata: ["error": "\(error)"])
        }
        return live
    }

    /// The parts the services are made of, built by `run()` before serving.
    private struct Parts {
        var keeper: IndexKeeper
        var search: SearchService
        var glance: GlanceService
        var results: ResultActions
        var launcher: TerminalLauncher
        var events: LibraryEvents
    }

    /// The daemon's services in the order they start (they stop in the reverse one).
    private func services(connection: DBusConnection, library: Library, parts: Parts, live: LiveSessionHost?,
                          hooks: TestHooks) -> [ServiceGroupConfiguration.ServiceConfiguration] {
        let (keeper, events, launcher, settings) = (parts.keeper, parts.events, parts.launcher, library.config.desktop)
        let watcher = StoreWatchService(paths: options.paths, keeper: keeper, events: events, log: log, useInotify: !hooks.noInotify)
        let chores = ChoresService(library: library, keeper: keeper, events: events, alerts: parts.results.alerts,
                                   interval: hooks.choreInterval ?? .seconds(30), log: log)
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: keeper), .init(service: parts.search), .init(service: parts.glance), .init(service: watcher),
            .init(service: chores),
        ]
        if let live { services.append(.init(service: live)) }
        if library.config.syncFolder != nil {
            services.append(.init(service: SyncService(library: library, keeper: keeper, events: events,
                                                       interval: hooks.syncPollInterval ?? .seconds(5), log: log)))
        }
        if let handoff = library.handoff {
            let notifications = library.config.disabledIntegrations.contains("notifications")
                ? nil : try? DBusNotificationServer(connection: connection)
            services.append(.init(service: HandoffService(
                library: library, handoff: handoff, server: notifications,
                interval: hooks.syncPollInterval ?? .seconds(5), log: log,
                showMemory: { [launcher, settings] id in if settings.open == .terminal { launcher.launch(.show(memoryID: id)) } })))
        }
        services.append(.init(service: StopRequests(connection: connection, log: log), successTerminationBehavior: .gracefullyShutdownGroup))
        return services
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
    static func executablePath() -> String { InstalledFolders.executable }
}
