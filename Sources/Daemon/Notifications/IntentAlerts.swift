import DBus
import EngramCore
import Foundation
import Intents
import Logging
import Notifier
import Synchronization

/// Shows intent results nobody is looking at as notifications: commands run from KRunner, and delayed intents
/// (`engram ask --in 10m …`) when they come due.
///
/// A result's follow-ups become actions ("Found 12 memories about actors. Summarize them, or show all?" offers
/// Summarize and Show all); choosing one runs it and shows its result. A delayed intent's notification counts as
/// seen once any of its actions is chosen or the user dismisses it; until then it is shown again every
/// `--realert` interval, at most its re-alert limit (the seeds' delayed call with a re-alert two minutes later).
final class IntentAlerts: @unchecked Sendable {
    /// What a shown notification stands for.
    struct Shown: Sendable {
        var followUps: [FollowUp]
        var delayedID: String?
    }

    static let appName = "Engram"
    /// The most result lines a notification body carries.
    static let bodyLines = 8
    /// The most notifications whose buttons are remembered at once.
    static let remembered = 256

    private let server: DBusNotificationServer
    private let store: Store
    private let log: Logger
    private let perform: @Sendable (IntentInvocation, @escaping @Sendable (Result<IntentResult, any Error>) -> Void) -> Void
    private let shown = Mutex<[UInt32: Shown]>([:])
    private var listener: Task<Void, Never>?

    init(connection: DBusConnection, store: Store, log: Logger,
         perform: @escaping @Sendable (IntentInvocation, @escaping @Sendable (Result<IntentResult, any Error>) -> Void) -> Void) throws {
        server = try DBusNotificationServer(connection: connection)
        self.store = store
        self.log = log
        self.perform = perform
        let events = server.events()
        listener = Task { [weak self] in
            for await event in events { self?.handle(event) }
        }
    }

    deinit { listener?.cancel() }

    /// Stops listening.
    func cancel() { listener?.cancel() }

    /// Shows a result, with its follow-ups as actions.
    func show(_ result: IntentResult, delayedID: String? = nil, again: Bool = false) {
        let def = IntentCatalog.definition(result.intent)
        var body = [result.sentence]
        body += result.lines.prefix(Self.bodyLines)
        let room = max(0, Self.bodyLines - result.lines.count)
        if result.intent != .showConnections {
            body += result.items.prefix(room).map { "• " + $0.title.split(whereSeparator: \.isNewline).joined(separator: " ") }
        }
        var actions = result.followUps.map { NotificationAction(key: $0.id, label: $0.label) }
        if delayedID != nil { actions.append(NotificationAction(key: "dismiss", label: "OK")) }
        post(summary: (again ? "Reminder: " : "") + def.title, body: body.joined(separator: "\n"), actions: actions,
             shown: Shown(followUps: result.followUps, delayedID: delayedID))
    }

    /// Shows that a command failed, in words.
    func show(failure: String, title: String, delayedID: String? = nil) {
        post(summary: "\(title) failed", body: failure, actions: delayedID == nil ? [] : [NotificationAction(key: "dismiss", label: "OK")],
             shown: Shown(followUps: [], delayedID: delayedID))
    }

    /// Shows a delayed intent's result again (a re-alert) and counts it.
    func realert(_ d: DelayedIntent, at now: Date) {
        do { try store.noteRealert(id: d.id, at: now) } catch {
            log.warning("could not record a re-alert", metadata: ["error": "\(error)"])
            return
        }
        let title = IntentName(rawValue: d.intent).map { IntentCatalog.definition($0).title } ?? d.intent
        post(summary: "Reminder: " + title, body: d.result ?? "", actions: [NotificationAction(key: "dismiss", label: "OK")],
             shown: Shown(followUps: [], delayedID: d.id))
    }

    /// An alert: the summary plain text, the body shown literally on servers with and without body markup.
    static func request(summary: String, body: String, actions: [NotificationAction], markup: Bool) -> NotificationRequest {
        NotificationRequest(appName: appName, appIcon: EngramBus.desktopEntry, summary: summary,
                            body: NotificationRequest.literalBody(body, markup: markup), actions: actions,
                            hints: ["desktop-entry": .string(EngramBus.desktopEntry)])
    }

    /// The last notification posted: each post waits for the one before it, so that a shortcut's steps show in the
    /// order they ran (two posts, each a task of its own, once reached the server the other way round).
    private let lastPost = Mutex<Task<Void, Never>?>(nil)

    private func post(summary: String, body: String, actions: [NotificationAction], shown entry: Shown) {
        let server = self.server
        lastPost.withLock { last in
            let previous = last
            last = Task {
                await previous?.value
                do {
                    let request = Self.request(summary: summary, body: body, actions: actions, markup: await server.readsBodyMarkup())
                    let id = try await server.notify(request)
                    self.shown.withLock { shown in
                        // Servers that never report closing (GNOME keeps a few per app) must not make this grow forever.
                        if shown.count >= Self.remembered { shown.removeAll() }
                        shown[id] = entry
                    }
                } catch {
                    self.log.warning("could not show a notification", metadata: ["error": "\(error)"])
                }
            }
        }
    }

    private func handle(_ event: NotificationEvent) {
        switch event {
        case .actionInvoked(let id, let key):
            guard let entry = shown.withLock({ $0.removeValue(forKey: id) }) else { return }
            acknowledge(entry)
            guard let followUp = entry.followUps.first(where: { $0.id == key }) else { return }
            let invocation = IntentInvocation(followUp.intent, followUp.arguments)
            perform(invocation) { result in
                switch result {
                case .success(let r): self.show(r)
                case .failure(let error): self.show(failure: "\(error)", title: followUp.label)
                }
            }
        case .closed(let id, let reason):
            guard let entry = shown.withLock({ $0.removeValue(forKey: id) }) else { return }
            if reason == .dismissed { acknowledge(entry) }
        default:
            return
        }
    }

    private func acknowledge(_ entry: Shown) {
        guard let id = entry.delayedID else { return }
        do { try store.acknowledgeDelayedIntent(id: id) } catch {
            log.warning("could not acknowledge a delayed intent", metadata: ["error": "\(error)"])
        }
    }
}
