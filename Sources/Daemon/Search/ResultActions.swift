import DBus
import Dispatch
import EngramCore
import EngramApp
import Indexer
import Intents
import Logging
import Synchronization

/// What the desktop does with a search result: open it (GNOME Shell's ActivateResult, KRunner's Run), open a full
/// search, and KRunner's copy, pin and unpin, and its commands. Store writes run on one serial queue, so the bus
/// thread only routes calls.
final class ResultActions: @unchecked Sendable {
    private let library: Library
    private let settings: DesktopSettings
    private let launcher: TerminalLauncher
    /// Engram's window, when installed.
    let appLauncher: AppLauncher?
    private let search: SearchService
    private let keeper: IndexKeeper
    private let app: AppActions
    private let log: Logger
    private let queue = DispatchQueue(label: "org.engram.daemon.result-actions", qos: .userInitiated)
    private let bus = Mutex<DBusConnection?>(nil)
    private let alertsBox = Mutex<IntentAlerts?>(nil)
    /// The activation token KRunner (Frameworks 6.17 on) hands over just before `Run`, and when.
    private let activation = Mutex<(token: String, at: ContinuousClock.Instant)?>(nil)
    /// How long a token waits for the `Run` it came with.
    static let activationTokenLife: Duration = .seconds(30)

    init(library: Library, settings: DesktopSettings, launcher: TerminalLauncher, appLauncher: AppLauncher?, search: SearchService,
         keeper: IndexKeeper, app: AppActions, log: Logger) {
        self.library = library
        self.settings = settings
        self.launcher = launcher
        self.appLauncher = appLauncher
        self.search = search
        self.keeper = keeper
        self.app = app
        self.log = log
    }

    /// The connection the clipboard is reached on (set once exported).
    func attach(_ connection: DBusConnection) {
        bus.withLock { $0 = connection }
        appLauncher?.attach(connection)
    }

    /// Keeps the token KRunner sends before `Run` (`SetActivationToken`), for what that Run opens.
    func setActivationToken(_ token: String) {
        activation.withLock { $0 = token.isEmpty ? nil : (token, .now) }
    }

    /// The token waiting for a Run, if it came recently; it is used once.
    private func takeActivationToken() -> String? {
        activation.withLock { a -> String? in
            defer { a = nil }
            guard let a, ContinuousClock.now - a.at < Self.activationTokenLife else { return nil }
            return a.token
        }
    }

    /// Shows `link` as configured: in Engram's window (the terminal when the window is not installed or cannot
    /// start), in a terminal, or not at all.
    private func show(_ link: DeepLink, terminal command: TerminalLauncher.Command, timestamp: UInt32, activationToken: String? = nil) {
        switch settings.open {
        case .none: return
        case .app:
            if let appLauncher, appLauncher.open(link.url, timestamp: timestamp, activationToken: activationToken) { return }
            launcher.launch(command, timestamp: timestamp, activationToken: activationToken)
        case .terminal:
            launcher.launch(command, timestamp: timestamp, activationToken: activationToken)
        }
    }

    /// Where a KRunner command's result is shown (nil when notifications are switched off or unavailable).
    var alerts: IntentAlerts? {
        get { alertsBox.withLock { $0 } }
        set { alertsBox.withLock { $0 = newValue } }
    }

    /// Opens a result: strengthens a memory (through `LinkHandler`) and shows it as configured; `timestamp` is the
    /// user action's X server time, when the desktop gave it (see `TerminalLauncher.launch`).
    func activate(_ id: String, source: String, timestamp: UInt32 = 0, done: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        // KRunner's token for this Run, taken now: a later Run must not reuse it.
        let token = source == "krunner" ? takeActivationToken() : nil
        queue.async {
            done(Result {
                let link = try DeepLink.parse(id)
                switch link {
                case .memory(let memoryID):
                    _ = try LinkHandler(library: self.library, source: source).perform(link)
                    self.changed(id)
                    self.log.info("opened a memory", metadata: ["id": "\(memoryID)", "from": "\(source)"])
                    self.show(link, terminal: .show(memoryID: memoryID), timestamp: timestamp, activationToken: token)
                case .curriculum, .topic:
                    _ = try LinkHandler(library: self.library, source: source).perform(link)
                    self.show(link, terminal: .open(url: link.url), timestamp: timestamp, activationToken: token)
                default:
                    throw EngramError.invalidInput("\(id) is not a search result")
                }
            })
        }
    }

    /// Opens a full search (in the window, else the terminal), as clicking the provider's icon in GNOME Shell asks.
    func launchSearch(_ terms: [String], timestamp: UInt32 = 0) {
        queue.async {
            self.log.info("opening a full search", metadata: ["terms": "\(terms.count)"])
            // The full search is asked for explicitly, so it opens even with `open = "none"` (in the terminal, as before).
            if self.settings.open == .app, let app = self.appLauncher,
               app.open(DeepLink.search(query: terms.joined(separator: " ")).url, timestamp: timestamp) { return }
            self.launcher.launch(.search(terms: terms), timestamp: timestamp)
        }
    }

    /// Runs a KRunner action on a match: "" opens it, "copy" copies its text, "pin"/"unpin" pin it; a command match
    /// runs the command and shows its result as a notification (KRunner's Run has no other way to answer).
    func run(_ id: String, action: String, done: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        if id.hasPrefix(IntentInvocation.commandScheme + ":") {
            guard action.isEmpty else {
                return done(.failure(DaemonError.invalidArgs("a command has no actions; Enter runs it")))
            }
            do {
                let invocation = try IntentInvocation(commandID: id)
                app.perform(.invocation(invocation), source: "krunner") { result in
                    switch result {
                    case .success(let r):
                        self.alerts?.show(r)
                        done(.success(()))
                    case .failure(let error):
                        self.alerts?.show(failure: "\(error)", title: IntentCatalog.definition(invocation.name).title)
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
            queue.async {
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
}
