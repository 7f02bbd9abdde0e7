import DBus
import Dispatch
import EngramCore
import EngramApp
import Indexer
import Logging
import ServiceLifecycle
import Synchronization

/// The glance properties of `org.engram.Engram1` (counts, streak, context, session, pending changes): recomputed
/// off the bus thread after every commit and store change, with `PropertiesChanged` for what differs, which the
/// lean feeds watching the bus refresh on.
final class GlanceService: Service, @unchecked Sendable {
    private let library: Library
    private let log: Logger
    private let events: LibraryEvents
    private let indexedSeq: @Sendable () -> Int64
    private let queue = DispatchQueue(label: "org.engram.daemon.glance", qos: .utility)
    private let state = Mutex<(glance: Glance, scheduled: Bool, lastRead: DispatchTime)>((Glance(), false, .init(uptimeNanoseconds: 0)))
    /// The least time between two reads of the store for the properties. A flood of captures posts an event for
    /// each store write and each index commit: read for every one, the glance took some 7,600 reads of 0.4-0.7 ms
    /// (and as many signals) in the 25 s of `make stress`'s 2,000 captures, CPU the searches typed meanwhile
    /// wanted. A widget showing counts needs them within a tenth of a second, not a read per event.
    static let minimumInterval = DispatchTimeInterval.milliseconds(100)
    private let bus = Mutex<DBusConnection?>(nil)

    /// `indexedSeq` says the last store change the index holds (the keeper's).
    init(library: Library, log: Logger, events: LibraryEvents, indexedSeq: @escaping @Sendable () -> Int64) {
        self.library = library
        self.log = log
        self.events = events
        self.indexedSeq = indexedSeq
    }

    /// The properties' current values. While a change waits for its read (`minimumInterval`), they are read now:
    /// a widget or script asking right after an action sees it (the signal follows with the coalesced read). One
    /// read serves all the properties of a `GetAll`.
    var glance: Glance {
        let (glance, waiting) = state.withLock { ($0.glance, $0.scheduled) }
        guard waiting else { return glance }
        return DBusPropertyRead.shared("org.engram.glance") {
            (try? Glance.read(from: library.store, indexedSeq: indexedSeq(), paths: library.paths)) ?? glance
        }
    }

    /// Computes the glance now, on the calling thread, without announcing it (at start-up).
    func load() throws {
        let fresh = try Glance.read(from: library.store, indexedSeq: indexedSeq(), paths: library.paths)
        state.withLock { $0.glance = fresh }
    }

    /// The connection properties are announced on (set once exported).
    func attach(_ connection: DBusConnection) {
        bus.withLock { $0 = connection }
    }

    /// Push-to-talk: stops the `engram listen` under way, or starts one (`engram` is this daemon's own binary);
    /// returns what happened, in words. The `Listening` property follows as the listener marks and unmarks itself.
    func toggleListening(engram: String) throws -> String {
        if Listening.stop(library.paths) { return "Stopped listening." }
        guard !library.config.disabledIntegrations.contains("voice") else {
            throw EngramError.invalidInput("listening is turned off ([privacy] voice = false in config.toml)")
        }
        let child = try Spawner.spawn(engram, ["listen", "--data-dir", library.paths.dataDirectory])
        Spawner.reap(child.pid) { [weak self] _ in self?.refresh() }
        return "Listening…"
    }

    /// Recomputes after every commit and store change until the daemon stops.
    func run() async throws {
        let changes = events.subscribe(to: [.committed, .storeChanged])
        refresh()
        for await _ in changes.cancelOnGracefulShutdown() { refresh() }
        bus.withLock { $0 = nil }  // nothing is announced on a bus about to close
    }

    /// Recomputes the glance off the bus thread and emits `PropertiesChanged` for what differs; requests coalesce,
    /// and reads are at least `minimumInterval` apart (a request meanwhile is served by the next read, never lost).
    func refresh() {
        let start = state.withLock { s -> DispatchTime? in
            if s.scheduled { return nil }
            s.scheduled = true
            return max(.now(), s.lastRead + Self.minimumInterval)
        }
        guard let start else { return }
        queue.asyncAfter(deadline: start) {
            self.state.withLock {
                $0.scheduled = false
                $0.lastRead = .now()
            }
            let fresh: Glance
            let start = ContinuousClock.now
            do {
                fresh = try Glance.read(from: self.library.store, indexedSeq: self.indexedSeq(), paths: self.library.paths)
                self.log.debug("read the glance properties", metadata: ["ms": "\(IndexKeeper.ms(since: start))"])
            } catch {
                self.log.warning("could not read the store for the glance properties", metadata: ["error": "\(error)"])
                return
            }
            let changed = self.state.withLock { s -> [String] in
                let names = fresh.changedProperties(from: s.glance)
                s.glance = fresh
                return names
            }
            guard !changed.isEmpty, let connection = self.bus.withLock({ $0 }) else { return }
            do {
                try connection.emitPropertiesChanged(path: DBusObjectPath(stringLiteral: EngramBus.appPath), interface: Engram1.name, properties: changed)
            } catch {
                self.log.warning("could not announce changed properties", metadata: ["error": "\(error)"])
            }
        }
    }
}
