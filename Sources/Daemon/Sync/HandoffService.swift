import Dispatch
import EngramCore
import Foundation
import EngramApp
import Indexer
import Logging
import Notifier
import ServiceLifecycle

/// Handoff in the daemon: offers other devices' recent activities as notifications ("Continue on this computer"),
/// answers their claims on the session this device runs (pausing it as of the claim), and resumes here a session
/// this device claimed once its origin let go of it. It wakes on the sync folder's changes (inotify on `devices/`
/// and each device's folder) and every `interval`. Runs whenever `[sync] folder` is set; without a notification
/// server (or with `[privacy] notifications = false`) it still answers and completes claims.
final class HandoffService: Service, @unchecked Sendable {
    /// What wakes the service.
    enum Wake: Sendable {
        case check
        case event(NotificationEvent)
    }

    /// A notification shown for an offer.
    struct Shown {
        var id: UInt32
        var offer: Handoff.Offer
    }

    static let summary = "Continue on this computer"
    static let failedSummary = "Could not continue on this computer"

    private let library: Library
    private let handoff: Handoff
    private let server: (any NotificationServer)?
    private let interval: Duration
    private let log: Logger
    /// Shows a memory continued from a notification (a terminal, as search results open).
    private let showMemory: @Sendable (String) -> Void
    private let queue = DispatchQueue(label: "org.engram.daemon.handoff", qos: .utility)

    // Owned by the runner task.
    private var shown: [String: Shown] = [:]
    private var dismissed: Set<String> = []
    private var serverGone = false

    init(library: Library, handoff: Handoff, server: (any NotificationServer)?, interval: Duration, log: Logger,
         showMemory: @escaping @Sendable (String) -> Void) {
        self.library = library
        self.handoff = handoff
        self.server = server
        self.interval = interval
        self.log = log
        self.showMemory = showMemory
    }

    func run() async throws {
        let wakes = FolderWakes(queue: queue, interval: interval, check: Wake.check, buffering: .unbounded)
        let devices = handoff.root + "/devices"
        if let server { wakes.feed { for await event in server.events() { wakes.yield(.event(event)) } } }
        let runner = Task {
            wakes.yield(.check)
            for await w in wakes.stream {
                switch w {
                case .check:
                    let offers = await onQueue { () -> [Handoff.Offer] in
                        try? EngramPaths.ensurePrivateDirectory(devices)
                        wakes.watch?.add(devices)
                        _ = DeviceFolders.files(devices, watch: wakes.watch)
                        self.answerAndComplete()
                        do { return try self.handoff.offers() } catch {
                            self.log.warning("cannot read the other devices' activities", metadata: ["error": "\(error)"])
                            return []
                        }
                    }
                    await show(offers)
                case .event(let event):
                    if await handle(event) { wakes.yield(.check) }
                }
            }
        }
        try? await gracefulShutdown()
        wakes.finish()
        await runner.value
        wakes.cancelWatch()
        for s in shown.values { try? await server?.closeNotification(id: s.id) }
    }

    private func onQueue<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { done in queue.async { done.resume(returning: body()) } }
    }

    /// The origin's and the continuing device's halves of a session's move.
    private func answerAndComplete() {
        do {
            for s in try handoff.answerClaims() {
                log.info("handed the session over to another device", metadata: ["session": "\(s.id)"])
            }
        } catch {
            log.warning("cannot answer another device's handoff claim", metadata: ["error": "\(error)"])
        }
        do {
            switch try handoff.completeClaim() {
            case .resumed(let s): log.info("continuing a session from another device", metadata: ["session": "\(s.id)"])
            case .dropped(let why): log.notice("gave up continuing a session here: \(why)")
            case .none, .waiting: break
            }
        } catch {
            log.warning("cannot continue the session claimed here", metadata: ["error": "\(error)"])
        }
    }

    private func key(_ o: Handoff.Offer) -> String { o.activity.device + "/" + o.kind.rawValue }

    /// Shows new offers, replaces changed ones and withdraws those gone.
    private func show(_ offers: [Handoff.Offer]) async {
        guard let server else { return }
        var wanted: [String: Handoff.Offer] = [:]
        for o in offers where wanted[key(o)] == nil && !dismissed.contains(o.identity) { wanted[key(o)] = o }
        for (k, s) in shown where wanted[k] == nil {
            shown[k] = nil
            try? await server.closeNotification(id: s.id)
        }
        let changed = wanted.sorted(by: { $0.key < $1.key }).filter { shown[$0.key]?.offer.identity != $0.value.identity }
        let markup = changed.isEmpty ? true : await server.readsBodyMarkup()
        for (k, o) in changed {
            do {
                shown[k] = Shown(id: try await server.notify(Self.request(o, replacing: shown[k]?.id ?? 0, markup: markup)), offer: o)
            } catch {
                log.warning("could not show a handoff offer", metadata: ["error": "\(error)"])
            }
        }
    }

    /// The notification offering `o`: "Continue on this computer" / "Swift Concurrency — Sendable, 12 min" and the
    /// device's name, shown literally (escaped only for servers that read bodies as markup); Continue as its default
    /// and only action.
    static func request(_ o: Handoff.Offer, replacing id: UInt32, markup: Bool) -> NotificationRequest {
        let what = o.kind == .session ? o.text : "“\(o.text)”"
        return NotificationRequest(
            appName: IntentAlerts.appName, replacesID: id, appIcon: EngramBus.desktopEntry, summary: summary,
            body: NotificationRequest.literalBody("\(what)\nfrom \(o.activity.deviceName)", markup: markup),
            actions: [NotificationAction(key: "default", label: "Continue"), NotificationAction(key: "continue", label: "Continue")],
            hints: ["desktop-entry": .string(EngramBus.desktopEntry)])
    }

    /// Follows a notification's action or forgets a dismissed one; returns whether to check again.
    private func handle(_ event: NotificationEvent) async -> Bool {
        switch event {
        case .actionInvoked(let id, let action) where action == "continue" || action == "default":
            guard let (k, s) = shown.first(where: { $0.value.id == id }) else { return false }
            shown[k] = nil
            let offer = s.offer
            let failure = await onQueue { () -> String? in
                do {
                    let out = try LinkHandler(library: self.library, source: "notification").perform(.handoff(device: offer.itemID))
                    self.log.info("\(out.sentence)")
                    if let m = out.memory { self.showMemory(m.id) }
                    return nil
                } catch {
                    self.log.warning("could not continue here", metadata: ["error": "\(error)"])
                    return "\(error)"
                }
            }
            // The person pressed Continue: a failure is said where they pressed it, not only in the log.
            if let failure, let server {
                let markup = await server.readsBodyMarkup()
                _ = try? await server.notify(NotificationRequest(
                    appName: IntentAlerts.appName, appIcon: "dialog-warning", summary: Self.failedSummary,
                    body: NotificationRequest.literalBody(failure, markup: markup),
                    hints: ["desktop-entry": .string(EngramBus.desktopEntry)]))
            }
            return true
        case .closed(let id, let reason):
            guard let (k, s) = shown.first(where: { $0.value.id == id }) else { return false }
            shown[k] = nil
            _ = reason  // dismissed, expired or closed by the server: not shown again until the activity changes
            dismissed.insert(s.offer.identity)
            return false
        case .ownerChanged(let owner):
            // The server went away: what it showed is gone; once one is back, show the offers again.
            if owner == nil {
                shown.removeAll()
                serverGone = true
                return false
            }
            defer { serverGone = false }
            return serverGone
        default:
            return false
        }
    }
}
