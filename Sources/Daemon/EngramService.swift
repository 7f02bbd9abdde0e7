import DBus
import Dispatch
import EngramCore
import Foundation
import Indexer
import Intents
import Logging
import Synchronization

/// What the daemon's three D-Bus interfaces call: search, activation, capture and the glance properties,
/// each on its own queue so the bus thread only routes calls.
///
/// - the search queue (`SearchService`) owns the index reader and the result cache;
/// - the writer queue (`IndexKeeper`) owns the index writer;
/// - the action queue does store writes and starts terminals;
/// - the glance queue recomputes the properties and announces what changed.
final class EngramService: @unchecked Sendable {
    let library: Library
    let settings: DesktopSettings
    let log: Logger
    let search: SearchService
    private(set) var keeper: IndexKeeper!
    private let launcher: TerminalLauncher
    private let actions = DispatchQueue(label: "org.engram.daemon.actions", qos: .userInitiated)
    private let glanceQueue = DispatchQueue(label: "org.engram.daemon.glance", qos: .utility)
    private let glanceState = Mutex<(glance: Glance, scheduled: Bool)>((Glance(), false))
    private let bus = Mutex<DBusConnection?>(nil)
    private let alertsBox = Mutex<IntentAlerts?>(nil)

    init(library: Library, settings: DesktopSettings, launcher: TerminalLauncher, log: Logger) {
        self.library = library
        self.settings = settings
        self.launcher = launcher
        self.log = log
        let reference = KeeperReference()
        self.search = SearchService(library: library, log: log) { why in reference.keeper?.repairIfDamaged(why) }
        // Every commit may have changed or forgotten items the result cache holds (a capture or `engram forget`
        // from another process): drop it, so metas and KRunner actions never show what the store no longer has.
        self.keeper = IndexKeeper(library: library, log: log) { [weak self] in
            self?.search.run({ $0.clearCache() }) { _ in }
            self?.refreshGlance()
        }
        reference.keeper = keeper
    }

    /// The connection properties are announced on (set once exported).
    func attach(_ connection: DBusConnection) {
        bus.withLock { $0 = connection }
    }

    /// Where results nobody is looking at are shown (nil when notifications are switched off or unavailable).
    var alerts: IntentAlerts? {
        get { alertsBox.withLock { $0 } }
        set { alertsBox.withLock { $0 = newValue } }
    }

    /// Shows a command's result as a notification (KRunner's Run has no other way to answer).
    func announce(_ result: IntentResult) {
        alerts?.show(result)
    }

    /// Shows that a command failed.
    func announce(failure: any Error, of invocation: IntentInvocation) {
        alerts?.show(failure: "\(failure)", title: IntentCatalog.definition(invocation.name).title)
    }

    // MARK: Glance

    /// The properties' current values.
    var glance: Glance { glanceState.withLock { $0.glance } }

    /// Computes the glance now, on the calling thread, without announcing it (at start-up).
    func loadGlance() throws {
        let fresh = try Glance.read(from: library.store, indexedSeq: keeper.lastAppliedSeq)
        glanceState.withLock { $0.glance = fresh }
    }

    /// Recomputes the glance off the bus thread and emits `PropertiesChanged` for what differs; requests coalesce.
    func refreshGlance() {
        let schedule = glanceState.withLock { s -> Bool in
            if s.scheduled { return false }
            s.scheduled = true
            return true
        }
        guard schedule else { return }
        glanceQueue.async {
            self.glanceState.withLock { $0.scheduled = false }
            let fresh: Glance
            let start = ContinuousClock.now
            do {
                fresh = try Glance.read(from: self.library.store, indexedSeq: self.keeper.lastAppliedSeq)
                self.log.debug("read the glance properties", metadata: ["ms": "\(IndexKeeper.ms(since: start))"])
            } catch {
                self.log.warning("could not read the store for the glance properties", metadata: ["error": "\(error)"])
                return
            }
            let changed = self.glanceState.withLock { s -> [String] in
                let names = fresh.changedProperties(from: s.glance)
                s.glance = fresh
                return names
            }
            guard !changed.isEmpty, let connection = self.bus.withLock({ $0 }) else { return }
            do {
                try connection.emitPropertiesChanged(path: DaemonBus.appPath, interface: Engram1.name, properties: changed)
            } catch {
                self.log.warning("could not announce changed properties", metadata: ["error": "\(error)"])
            }
        }
    }

    // MARK: Opening results

    /// Opens a result: strengthens a memory (through `LinkHandler`) and shows it as configured; `timestamp` is the
    /// user action's X server time, when the desktop gave it (see `TerminalLauncher.launch`).
    func activate(_ id: String, source: String, timestamp: UInt32 = 0, done: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        actions.async {
            done(Result {
                let link = try DeepLink.parse(id)
                switch link {
                case .memory(let memoryID):
                    _ = try LinkHandler(library: self.library, source: source).perform(link)
                    self.changed(id)
                    self.log.info("opened a memory", metadata: ["id": "\(memoryID)", "from": "\(source)"])
                    if self.settings.open == .terminal { self.launcher.launch(.show(memoryID: memoryID), timestamp: timestamp) }
                case .curriculum, .topic:
                    _ = try LinkHandler(library: self.library, source: source).perform(link)
                    if self.settings.open == .terminal { self.launcher.launch(.open(url: link.url), timestamp: timestamp) }
                default:
                    throw EngramError.invalidInput("\(id) is not a search result")
                }
            })
        }
    }

    /// Opens a full search in the terminal, as clicking the provider's icon in GNOME Shell asks.
    func launchSearch(_ terms: [String], timestamp: UInt32 = 0) {
        actions.async {
            self.log.info("opening a full search", metadata: ["terms": "\(terms.count)"])
            self.launcher.launch(.search(terms: terms), timestamp: timestamp)
        }
    }

    /// Runs a KRunner action on a match: "" opens it, "copy" copies its text, "pin"/"unpin" pin it.
    func run(_ id: String, action: String, done: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        if id.hasPrefix(IntentInvocation.commandScheme + ":") {
            guard action.isEmpty else {
                return done(.failure(DaemonError.invalidArgs("a command has no actions; Enter runs it")))
            }
            do {
                let invocation = try IntentInvocation(commandID: id)
                perform(.invocation(invocation), source: "krunner") { result in
                    switch result {
                    case .success(let r):
                        self.announce(r)
                        done(.success(()))
                    case .failure(let error):
                        self.announce(failure: error, of: invocation)
                        done(.failure(error))
                    }
                }
            } catch {
                done(.failure(error))
            }
            return
        }
        switch action {
        case "":
            activate(id, source: "krunner", done: done)
        case "copy", "pin", "unpin":
            actions.async {
                done(Result {
                    let link = try DeepLink.parse(id)
                    if action == "copy" {
                        let item = self.search.sync { $0.item(for: id) }
                        guard item.isKnown else { throw EngramError.notFound("\(id) is no longer in Engram") }
                        guard let connection = self.bus.withLock({ $0 }) else { return }
                        Clipboard(bus: connection, log: self.log).copy(item.clipboardText)
                        if case .memory(let memoryID) = link {
                            try self.library.store.reinforce(id: memoryID, action: .activate, source: "krunner")
                            self.changed(id)
                        }
                        return
                    }
                    guard case .memory(let memoryID) = link else {
                        throw EngramError.invalidInput("only memories can be pinned")
                    }
                    try self.library.store.setPinned(id: memoryID, action == "pin")
                    self.changed(id)
                    self.log.info(action == "pin" ? "pinned a memory" : "unpinned a memory", metadata: ["id": "\(memoryID)"])
                })
            }
        default:
            done(.failure(DaemonError.invalidArgs("unknown action '\(action)'; Engram's actions are copy, pin and unpin")))
        }
    }

    /// After a memory changed: index it and drop its cached item.
    private func changed(_ id: String) {
        keeper.requestApply()
        search.run({ $0.invalidate(id) }) { _ in }
    }

    // MARK: org.engram.Engram1

    /// Stores a memory (once per request id) and answers when it is searchable, or at once if indexing is delayed.
    func remember(_ draft: MemoryDraft, requestID: String?,
                  done: @escaping @Sendable (Result<(memory: Memory, sentence: String), any Error>) -> Void) {
        actions.async {
            do {
                var draft = draft
                if draft.context == nil { draft.context = try self.library.store.captureContext() }
                let result = try self.library.store.remember(draft, requestID: requestID)
                let sentence = (result.created ? "Remembered “" : "Already remembered “") + Self.short(result.memory.title) + "”."
                if result.created {
                    self.log.info("remembered a memory", metadata: ["id": "\(result.memory.id)", "from": "\(draft.source ?? "?")"])
                }
                self.keeper.requestApply { _ in done(.success((result.memory, sentence))) }
            } catch {
                done(.failure(error))
            }
        }
    }

    /// What to run: a phrase to match against the catalog (and the person's own phrases), or a ready invocation.
    enum IntentRequest: Sendable {
        case phrase(String)
        case invocation(IntentInvocation)
    }

    /// Runs an intent on the action queue and answers once what it changed is indexed (so a StoreMemory is searchable
    /// when the caller hears "Remembered …").
    func perform(_ request: IntentRequest, source: String, done: @escaping @Sendable (Result<IntentResult, any Error>) -> Void) {
        actions.async {
            do {
                var runner = IntentRunner(library: self.library, source: source)
                runner.exportsOnlyToDataFolder = true
                let invocation: IntentInvocation
                switch request {
                case .phrase(let phrase):
                    guard phrase.utf8.count <= SearchService.maxQueryBytes else {
                        throw DaemonError.invalidArgs("the phrase is \(phrase.utf8.count) bytes long; the limit is \(SearchService.maxQueryBytes)")
                    }
                    invocation = try runner.resolve(phrase).invocation
                case .invocation(let given):
                    invocation = given
                }
                let result = try runner.run(invocation)
                self.log.info("performed an intent", metadata: ["intent": "\(invocation.name.rawValue)", "from": "\(source)"])
                self.search.run({ $0.clearCache() }) { _ in }
                self.refreshGlance()
                self.keeper.requestApply { _ in done(.success(result)) }
            } catch {
                done(.failure(error))
            }
        }
    }

    /// The collection's stats, in the active context.
    func stats(done: @escaping @Sendable (Result<(stats: MemoryStats, context: String?), any Error>) -> Void) {
        actions.async {
            done(Result { try self.library.store.statsInActiveContext(now: self.library.store.clock(), decay: self.library.config.decay) })
        }
    }

    /// Follows an `engram://` link through `LinkHandler` and answers its sentence.
    func open(_ url: String, source: String, done: @escaping @Sendable (Result<String, any Error>) -> Void) {
        actions.async {
            do {
                let outcome = try LinkHandler(library: self.library, source: source).open(url)
                self.keeper.requestApply { _ in done(.success(outcome.sentence)) }
                self.refreshGlance()
            } catch {
                done(.failure(error))
            }
        }
    }

    /// Indexes pending changes now; answers the last change the index holds.
    func sync(done: @escaping @Sendable (Result<UInt64, any Error>) -> Void) {
        keeper.requestApply { outcome in
            switch outcome {
            case .applied(let report): done(.success(UInt64(max(0, report.lastSeq))))
            case .busy: done(.failure(DBusError(name: DaemonBus.errorPrefix + "Busy",
                                                message: "another Engram process holds the index writer; the daemon indexes once it is free")))
            case .failed(let message): done(.failure(DBusError(name: DaemonBus.errorPrefix + "Index", message: message)))
            }
        }
    }

    /// Rebuilds the index; answers the number of items indexed.
    func rebuild(done: @escaping @Sendable (Result<Int, any Error>) -> Void) {
        log.info("rebuilding the index on request")
        keeper.rebuild { result in
            self.search.run({ $0.clearCache() }) { _ in }
            done(result.map(\.upserted))
        }
    }

    static func short(_ title: String) -> String {
        let line = ResultItem.oneLine(title)
        return line.count <= 60 ? line : String(line.prefix(59)) + "…"
    }
}
