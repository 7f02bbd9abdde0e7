import EngramCore
import EngramApp
import Indexer
import Intents
import Logging
import ServiceLifecycle

/// The daemon's half-minute chores: runs delayed intents that are due (showing each result as a notification),
/// alerts again about results nobody acknowledged, and follows the desktop's do-not-disturb with the `focus` context.
final class ChoresService: Service, @unchecked Sendable {
    private let library: Library
    private let keeper: IndexKeeper
    private let events: LibraryEvents
    private let alerts: IntentAlerts?
    private let log: Logger
    private let interval: Duration
    // Touched only by `run`'s one task:
    private let delayed: DelayedIntentRunner
    private let contexts: ContextControl
    /// Whether the log said that a forget's erase waits for a reader (said once, not every half minute).
    private var eraseNoted = false

    init(library: Library, keeper: IndexKeeper, events: LibraryEvents, alerts: IntentAlerts?, interval: Duration, log: Logger) {
        self.library = library
        self.keeper = keeper
        self.events = events
        self.alerts = alerts
        self.interval = interval
        self.log = log
        var runner = IntentRunner(library: library, source: "daemon")
        runner.exportsOnlyToDataFolder = true
        delayed = DelayedIntentRunner(runner: runner)
        contexts = ContextControl(store: library.store)
    }

    func run() async throws {
        await cancelOnGracefulShutdown { [self] in
            await repeating(every: interval) { self.once() }
        }
        alerts?.cancel()
    }

    private func once() {
        // A forget (here, from the CLI, or from a peer) that a reader kept from emptying the WAL is finished here.
        let stillErasing = library.store.finishErasing()
        if stillErasing && !eraseNoted {
            log.notice("a forgotten memory's old copies are still in the store's write-ahead log (a reader holds it); trying again every half minute")
        }
        eraseNoted = stillErasing
        do {
            let now = library.store.clock()
            let ran = try delayed.runDue(now: now)
            for r in ran {
                log.info("ran a delayed intent: \(r.sentence)")
                if let result = r.result {
                    alerts?.show(result, delayedID: r.delayed.id)
                } else {
                    alerts?.show(failure: r.error ?? "it failed", title: r.delayed.phrase.map { "“\($0)”" } ?? r.delayed.intent,
                                 delayedID: r.delayed.id)
                }
            }
            if !ran.isEmpty {
                keeper.requestApply()
                events.post(.storeChanged)
            }
            if let alerts {
                for d in try library.store.intentsNeedingRealert(now: now) { alerts.realert(d, at: now) }
            }
            _ = try contexts.sync()
        } catch {
            log.warning("delayed intents could not run", metadata: ["error": "\(error)"])
        }
    }
}
