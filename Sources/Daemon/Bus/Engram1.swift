import DBus
import EngramCore
import Foundation

/// `org.engram.Engram1` at `/org/engram/Engram`: Engram's own interface, for automation and voice front ends.
///
/// Methods: `Remember` (a retry with the same request id never stores twice; the reply comes once the
/// memory is searchable), `Search`, `Stats`, `Open` (an `engram://` link), `Sync` (index pending changes
/// now) and `Rebuild`; `Perform`, `RunShortcut` and one method per intent of the catalog (`Engram1+Intents.swift`). Properties are read from a snapshot the daemon keeps, so reading them never
/// touches the store; `PropertiesChanged` announces every change:
///
/// | property | type | meaning |
/// |---|---|---|
/// | `MemoryCount` | u | memories in the store |
/// | `TodayCount` | u | memories captured since local midnight |
/// | `StreakDays` | u | consecutive days with a capture, ending today or yesterday |
/// | `ActiveContext` | s | the active context (`work`, `sleep`, …), "" for none |
/// | `ActiveSession` | s | the running or paused learning session as JSON, "" for none |
/// | `PendingChanges` | u | store changes not indexed yet |
/// | `IndexedChange` | t | the last store change the index holds; grows with every indexed change |
/// | `Listening` | b | push-to-talk (`engram listen`) is recording now; `Listen` starts and stops it |
/// | `Version` | s | the daemon's version (constant) |
enum Engram1 {
    static let name = EngramBus.appInterface
    static let version = "0.1.0"
    /// The most results `Search` returns.
    static let maxSearchLimit: UInt32 = 100

    static func interface(app: AppActions, results: ResultActions, search: SearchService, glance: GlanceService, keeper: IndexKeeper) -> DBusInterface {
        DBusInterface(name, methods: [
            DBusMethod("Remember", in: ["content": "s", "type": "s", "tags": "as", "context": "s", "request_id": "s"],
                       out: ["id": "s", "sentence": "s"], deferredHandler: { call, reply in
                do {
                    let type: String = try call.argument(1)
                    guard type.isEmpty || MemoryType(rawValue: type) != nil else {
                        throw EngramError.invalidInput("unknown type '\(type)'; use note, idea, task, quote or learning")
                    }
                    let draft = MemoryDraft(content: try call.argument(0), type: MemoryType(rawValue: type) ?? .note,
                                            tags: try call.argument(2), context: nonEmpty(try call.argument(3)), source: "dbus")
                    app.remember(draft, requestID: nonEmpty(try call.argument(4))) { result in
                        reply.settle(result.map { [.string($0.memory.id), .string($0.sentence)] })
                    }
                } catch {
                    reply.fail(DaemonError.dbus(error))
                }
            }),
            DBusMethod("Search", in: ["query": "s", "limit": "u"], out: ["results": "aa{sv}"], deferredHandler: { call, reply in
                do {
                    let query: String = try call.argument(0)
                    let limit = Int(min(max(try call.argument(1, as: UInt32.self), 1), maxSearchLimit))
                    search.answerSearch(query, { try $0.search(query, limit: limit, client: .dbus) }) { result in
                        reply.settle(result.map { [.array("a{sv}", $0.map(searchResult))] })
                    }
                } catch {
                    reply.fail(DaemonError.dbus(error))
                }
            }),
            DBusMethod("Stats", in: [:], out: ["stats": "a{sv}"], deferredHandler: { _, reply in
                app.stats { reply.settle($0.map { [statsValue($0.stats, context: $0.context)] }) }
            }),
            DBusMethod("Open", in: ["url": "s"], out: ["sentence": "s"], deferredHandler: { call, reply in
                do {
                    let url: String = try call.argument(0)
                    app.open(url, source: "dbus") { reply.settle($0.map { [.string($0)] }) }
                } catch {
                    reply.fail(DaemonError.dbus(error))
                }
            }),
            DBusMethod("Sync", in: [:], out: ["indexed_change": "t"], deferredHandler: { _, reply in
                keeper.sync { reply.settle($0.map { [.uint64($0)] }) }
            }),
            DBusMethod("Rebuild", in: [:], out: ["items": "u"], deferredHandler: { _, reply in
                keeper.rebuild { reply.settle($0.map { [.uint32(UInt32(clamping: $0.upserted))] }) }
            }),
            // Push-to-talk for the window's, the extension's and the widget's microphone buttons: the first call
            // starts `engram listen`, the next stops it (it then acts on what it heard).
            DBusMethod("Listen", in: [:], out: ["sentence": "s"]) { _ in
                do {
                    return [.string(try glance.toggleListening(engram: EngramDaemon.executablePath()))]
                } catch {
                    throw DaemonError.dbus(error)
                }
            },
            // `engram listen` says it started or stopped: `Listening` is read again at once.
            DBusMethod("ListeningChanged", in: [:], out: [:]) { _ in
                glance.refresh()
                return []
            },
        ] + intentMethods(app, resultActions: results), properties: [
            DBusProperty("MemoryCount", "u") { .uint32(glance.glance.memoryCount) },
            DBusProperty("TodayCount", "u") { .uint32(glance.glance.todayCount) },
            DBusProperty("StreakDays", "u") { .uint32(glance.glance.streakDays) },
            DBusProperty("ActiveContext", "s") { .string(glance.glance.activeContext) },
            DBusProperty("ActiveSession", "s") { .string(glance.glance.activeSession) },
            DBusProperty("PendingChanges", "u") { .uint32(glance.glance.pendingChanges) },
            DBusProperty("IndexedChange", "t") { .uint64(glance.glance.indexedChange) },
            DBusProperty("Listening", "b") { .boolean(glance.glance.listening) },
            DBusProperty("Version", "s", changes: .constant) { .string(version) },
        ])
    }

    private static func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }

    /// One `Search` result: `id`, `url`, `kind`, `title`, `description`, `icon`, `relevance`, `pinned`.
    static func searchResult(_ item: ResultItem) -> DBusValue {
        let storeID = (try? DeepLink.parse(item.id)).flatMap { link -> String? in
            switch link {
            case .memory(let id), .curriculum(let id), .topic(let id): id
            default: nil
            }
        } ?? item.id
        return .vardict([
            "id": .string(storeID), "url": .string(item.id), "kind": .string(item.kind?.rawValue ?? ""),
            "title": .string(item.title), "description": .string(item.description), "icon": .string(item.iconName),
            "relevance": .double(item.relevance), "pinned": .boolean(item.pinned), "by_meaning": .boolean(item.byMeaning),
        ])
    }

    /// `Stats` as a dictionary, with a sentence a voice front end can say.
    static func statsValue(_ s: MemoryStats, context: String? = nil) -> DBusValue {
        var dict: [String: DBusValue] = [
            "total": .uint32(UInt32(clamping: s.total)), "today": .uint32(UInt32(clamping: s.today)),
            "this_week": .uint32(UInt32(clamping: s.thisWeek)), "streak_days": .uint32(UInt32(clamping: s.streakDays)),
            "pinned": .uint32(UInt32(clamping: s.pinned)), "connections": .uint32(UInt32(clamping: s.connections)),
            "expiring_soon": .uint32(UInt32(clamping: s.expiringSoon)), "faded": .uint32(UInt32(clamping: s.expired)),
            "curricula": .uint32(UInt32(clamping: s.curricula)), "topics": .uint32(UInt32(clamping: s.topics)),
            "topics_done": .uint32(UInt32(clamping: s.topicsDone)),
            "sentence": .string(context == "sleep" ? "The sleep context is on: nothing is shown."
                                : "You have \(s.total) memories\(context.map { " in \($0)" } ?? ""), \(s.today) from today, and a \(s.streakDays)-day streak."),
            "context": .string(context ?? ""),
        ]
        if let tag = s.topTag { dict["top_tag"] = .string(tag) }
        return .vardict(dict)
    }
}
