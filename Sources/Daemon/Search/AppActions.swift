import Dispatch
import EngramCore
import EngramApp
import Indexer
import Intents
import Logging

/// What `org.engram.Engram1` does besides searching: captures, intents, stats and links, each a store write on one
/// serial queue, answered once what it changed is searchable.
final class AppActions: @unchecked Sendable {
    private let library: Library
    private let keeper: IndexKeeper
    private let events: LibraryEvents
    private let log: Logger
    private let queue = DispatchQueue(label: "org.engram.daemon.app-actions", qos: .userInitiated)

    init(library: Library, keeper: IndexKeeper, events: LibraryEvents, log: Logger) {
        self.library = library
        self.keeper = keeper
        self.events = events
        self.log = log
    }

    /// Stores a memory (once per request id) and answers when it is searchable, or at once if indexing is delayed.
    func remember(_ draft: MemoryDraft, requestID: String?,
                  done: @escaping @Sendable (Result<(memory: Memory, sentence: String), any Error>) -> Void) {
        queue.async {
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

    /// Runs an intent and answers once what it changed is indexed (so a StoreMemory is searchable when the caller
    /// hears "Remembered …").
    func perform(_ request: IntentRequest, source: String, done: @escaping @Sendable (Result<IntentResult, any Error>) -> Void) {
        queue.async {
            do {
                var runner = IntentRunner(library: self.library, source: source)
                runner.exportsOnlyToDataFolder = true
                let result: IntentResult
                switch request {
                case .phrase(let phrase):
                    guard phrase.utf8.count <= Limits.maxQueryBytes else {
                        throw DaemonError.invalidArgs("the phrase is \(phrase.utf8.count) bytes long; the limit is \(Limits.maxQueryBytes)")
                    }
                    // A phrase that is not clear enough answers Engram's question (a structured clarification), and
                    // runs nothing.
                    result = try runner.respond(phrase)
                case .invocation(let given):
                    result = try runner.run(given)
                }
                if result.clarification != nil {
                    self.log.info("asked before acting on a phrase", metadata: ["question": "\(result.sentence)", "from": "\(source)"])
                    return done(.success(result))
                }
                self.log.info("performed an intent", metadata: ["intent": "\(result.intent.rawValue)", "from": "\(source)"])
                self.events.post(.storeChanged)
                self.keeper.requestApply { _ in done(.success(result)) }
            } catch {
                done(.failure(error))
            }
        }
    }

    /// Runs the person's shortcut `name` (`[[shortcuts]]` in config.toml) as a keybinding asks: each step understood
    /// as spoken words, stopping at the first one Engram must ask about; answers the results (the last may be the
    /// question).
    func runShortcut(_ name: String, source: String, done: @escaping @Sendable (Result<[IntentResult], any Error>) -> Void) {
        queue.async {
            do {
                let config = try ShortcutConfig(self.library.config, origin: self.library.paths.configPath)
                var runner = IntentRunner(library: self.library, source: source)
                runner.exportsOnlyToDataFolder = true
                let results = try runner.respond(try config.shortcut(named: name))
                self.log.info("ran a shortcut", metadata: ["steps": "\(results.count)", "asked": "\(results.last?.clarification != nil)"])
                self.events.post(.storeChanged)
                self.keeper.requestApply { _ in done(.success(results)) }
            } catch {
                done(.failure(error))
            }
        }
    }

    /// The collection's stats, in the active context.
    func stats(done: @escaping @Sendable (Result<(stats: MemoryStats, context: String?), any Error>) -> Void) {
        queue.async {
            done(Result { try self.library.store.statsInActiveContext(now: self.library.store.clock(), decay: self.library.config.decay) })
        }
    }

    /// Follows an `engram://` link through `LinkHandler` and answers its sentence.
    func open(_ url: String, source: String, done: @escaping @Sendable (Result<String, any Error>) -> Void) {
        queue.async {
            do {
                let outcome = try LinkHandler(library: self.library, source: source).open(url)
                self.events.post(.storeChanged)
                self.keeper.requestApply { _ in done(.success(outcome.sentence)) }
            } catch {
                done(.failure(error))
            }
        }
    }

    /// A title cut to one short line, for the sentences answered.
    static func short(_ title: String) -> String {
        let line = ResultItem.oneLine(title)
        return line.count <= 60 ? line : String(line.prefix(59)) + "…"
    }
}
