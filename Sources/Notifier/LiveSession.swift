import EngramCore
import Foundation
import Synchronization

/// The controller that keeps live activities in step with the sessions in the store.
///
/// It reads the store every `pollInterval`, so a session paused from the CLI, a deep link or D-Bus shows
/// as paused within a second; and it turns the buttons of an activity back into the store's state machine
/// through `perform` (the same `LinkHandler` every front end uses). One activity per session: it is
/// created when the session is seen active, ended with the session, and never re-created after the person
/// dismissed it.
///
/// Exactly one process shows each session — its host, recorded in the store:
/// - a capture is shown by the `engram capture` taking its lines, and by nobody else while that runs; the
///   daemon (`.active`) takes over a capture only when its process died, to show it ended as interrupted;
/// - a learning session is shown by whoever claims it first while no live host has it: the daemon, or
///   `--follow` when no daemon runs (its `mayHost`); the other defers, and takes over when the host is gone.
///
/// A host taking over from one that died replaces the notification it left (recorded in the store) rather
/// than adding a second one.
///
/// Hosting it in the daemon (cancel the task on shutdown; live notifications are then taken down):
///
///     let live = LiveSession(
///         store: library.store, scope: .active,
///         surfaces: try LiveSurfaces.automatic(connection: sessionBus),
///         perform: { link in _ = try LinkHandler(library: library, source: "notification").perform(link) })
///     let task = Task { await live.run() }
public actor LiveSession {
    /// Which sessions to follow.
    public enum Scope: Sendable, Equatable {
        /// The active learning session, and captures whose process died; runs until cancelled (the daemon).
        case active
        /// One session; `run()` returns once it has ended and its end is shown (`engram capture`, `--follow`).
        case session(id: String)
    }

    /// Timing and dismissal.
    public struct Options: Sendable {
        /// How often the store is read.
        public var pollInterval: Duration
        /// Coalescing and watchdog of each activity.
        public var activity: LiveActivity.Options
        /// How an ended learning session's activity goes away.
        public var learningDismissal: DismissalPolicy
        /// How an ended capture session's activity goes away.
        public var captureDismissal: DismissalPolicy
        /// Whether an ended session keeps its Open button: only when something will still answer it (a host
        /// that keeps running, or the helper a capture hands its dismissal to).
        public var finalButtons: Bool

        /// Creates options.
        public init(pollInterval: Duration = .milliseconds(500), activity: LiveActivity.Options = .init(),
                    learningDismissal: DismissalPolicy = .default, captureDismissal: DismissalPolicy = .after(.seconds(60)),
                    finalButtons: Bool = true) {
            self.pollInterval = pollInterval
            self.activity = activity
            self.learningDismissal = learningDismissal
            self.captureDismissal = captureDismissal
            self.finalButtons = finalButtons
        }
    }

    /// A timed dismissal handed to a helper process: the notification, how long it has left, and where its Open leads.
    public struct DismissalHandOff: Sendable, Equatable {
        /// The notification.
        public var notification: NotificationHandOff
        /// How long until it should go.
        public var remaining: Duration
        /// The link its Open button (or a click) opens, if it has one.
        public var openLink: String?
    }

    /// Makes the surface for one session.
    public typealias SurfaceFactory = @Sendable (Session) -> any ActivitySurface
    /// Carries out a session action: `LinkHandler(library:source:).perform` in the CLI and the daemon.
    public typealias Perform = @Sendable (DeepLink) throws -> Void

    private struct Tracked {
        let activity: LiveActivity
        var dismissed = false
        var content: ActivityContent?
    }

    private struct Finished {
        let activity: LiveActivity
        let openLink: String?
    }

    private let store: Store
    private let scope: Scope
    private let options: Options
    private let makeSurface: SurfaceFactory
    private let perform: Perform
    private let opener: any LinkOpener
    private let notice: @Sendable (String) -> Void
    private let host: String
    private let mayHost: @Sendable () -> Bool
    private nonisolated let localStops = Mutex<[String: @Sendable () -> Void]>([:])

    private var tracked: [String: Tracked] = [:]
    private var finished: [String: Finished] = [:]
    /// Sessions whose activity has ended: never followed again, even after their activity is let go.
    private var ended: Set<String> = []
    private var notes: [String: CaptureNotes] = [:]
    private var generation: UInt64 = 0
    private var noticed = false
    private var done = false

    /// Creates a controller; nothing happens until `run()`.
    ///
    /// - Parameters:
    ///   - perform: carries out Pause, Resume and Stop; by default straight on the store's state machine.
    ///   - notice: hears one-line notes for the person, such as “no notification server is running”.
    ///   - host: this process, as the store records session hosts.
    ///   - mayHost: whether this process may take a learning session no live process hosts (`--follow`
    ///     defers to a running daemon); asked before each claim.
    public init(store: Store, scope: Scope = .active, options: Options = Options(),
                surfaces: @escaping SurfaceFactory,
                perform: Perform? = nil,
                opener: any LinkOpener = ProcessLinkOpener(),
                notice: @escaping @Sendable (String) -> Void = { _ in },
                host: String = ProcessIdentity.current,
                mayHost: @escaping @Sendable () -> Bool = { true }) {
        self.store = store
        self.scope = scope
        self.options = options
        self.makeSurface = surfaces
        self.perform = perform ?? { link in
            if case .session(let action, let id) = link { try store.transition(action, sessionID: id) }
        }
        self.opener = opener
        self.notice = notice
        self.host = host
        self.mayHost = mayHost
    }

    /// Has Stop (a capture's Done) on `sessionID`'s activity call `handler` in this process instead of
    /// `perform`: a capture is ended by the process taking its lines.
    public nonisolated func routeStop(of sessionID: String, to handler: @escaping @Sendable () -> Void) {
        localStops.withLock { $0[sessionID] = handler }
    }

    /// Follows the store until cancelled, or, for one session, until it has ended and its end is shown.
    public func run() async {
        while !Task.isCancelled, !done {
            await refresh()
            if done { break }
            try? await Task.sleep(for: options.pollInterval)
        }
        if Task.isCancelled {
            for (id, t) in tracked {
                await t.activity.shutdown()
                try? store.releaseHost(sessionID: id, host: host)
            }
            tracked = [:]
            if scope == .active {
                for (_, f) in finished { await f.activity.shutdown() }
                finished = [:]
            }
        }
    }

    /// Reads the store now and brings every activity up to date.
    public func refresh() async {
        generation += 1
        let mine = generation  // later refreshes may run while this one awaits: label its content with its own number
        var sessions: [Session]
        var interrupted: [Session] = []
        do {
            switch scope {
            case .active:
                interrupted = try store.endOrphanedCaptures()
                sessions = [try store.activeSession(kind: .learning)].compactMap { $0 }
            case .session(let id):
                guard let session = try store.session(id: id) else {
                    done = true
                    return
                }
                sessions = [session]
            }
            // What became of the sessions followed so far (ended, most likely).
            for id in tracked.keys where !sessions.contains(where: { $0.id == id }) {
                if let s = try store.session(id: id) { sessions.append(s) }
            }
        } catch {
            return  // An unreadable store is a missed update; the watchdog shows it if it lasts.
        }
        let now = store.clock()
        for session in sessions where session.isActive && !ended.contains(session.id) {
            var entry: Tracked
            if let existing = tracked[session.id] {
                entry = existing
            } else {
                guard hosts(session) else { continue }
                entry = await startTracking(session)
            }
            let content = SessionPresenter.content(for: session, now: now, notes: notes[session.id])
            tracked[session.id]?.content = content
            if !entry.dismissed { await entry.activity.update(content, sequence: mine) }
        }
        for id in Array(tracked.keys) {
            guard let entry = tracked[id] else { continue }
            let session = sessions.first { $0.id == id }
            if let session, session.isActive { continue }
            tracked[id] = nil
            await finish(entry.activity, session, id: id, now: now)
        }
        for session in interrupted where !ended.contains(session.id) {
            // Its process died: take over its notification, only to show how it ended.
            let entry = await startTracking(session)
            tracked[session.id] = nil
            await finish(entry.activity, session, id: session.id, now: now)
        }
        if case .session(let id) = scope, let session = sessions.first(where: { $0.id == id }), !session.isActive,
           tracked[id] == nil {
            done = true
        }
    }

    /// Records a captured memory, so the capture session's activity shows it as the last one.
    public func noteCapture(sessionID: String, memory: Memory) async {
        notes[sessionID, default: CaptureNotes()].lastMemoryTitle = memory.title
        notes[sessionID, default: CaptureNotes()].lastMemoryID = memory.id
        await refresh()
    }

    /// Records the capture session's phase (processing, with progress); a new phase is on screen when this returns.
    public func notePhase(sessionID: String, _ phase: CapturePhase) async {
        let wasCapturing = (notes[sessionID]?.phase ?? .capturing) == .capturing
        notes[sessionID, default: CaptureNotes()].phase = phase
        await refresh()
        if wasCapturing, phase != .capturing { await tracked[sessionID]?.activity.flush() }
    }

    /// Records whether the capture session's memories were linked when it completed.
    public func noteLinked(sessionID: String, _ linked: Bool) {
        notes[sessionID, default: CaptureNotes()].linked = linked
    }

    /// The activity following `sessionID`, while it is followed or after it ended.
    public func activity(for sessionID: String) -> LiveActivity? {
        tracked[sessionID]?.activity ?? finished[sessionID]?.activity
    }

    /// Whether this process shows `sessionID` now.
    public func isHosting(_ sessionID: String) -> Bool { tracked[sessionID] != nil }

    /// Waits until every timed dismissal has run.
    public func waitForDismissals() async {
        for f in finished.values { await f.activity.waitForDismissal() }
    }

    /// Cancels the timed dismissals still pending and returns what a helper process needs to carry them out
    /// (and to answer Open meanwhile).
    public func handOffDismissals() async -> [DismissalHandOff] {
        var out: [DismissalHandOff] = []
        for f in finished.values {
            if let (handOff, remaining) = await f.activity.handOffDismissal() {
                out.append(DismissalHandOff(notification: handOff, remaining: remaining, openLink: f.openLink))
            }
        }
        return out
    }

    // MARK: Private

    /// Whether this process shows `session`: a capture only by its own process; a learning session by the
    /// first to claim it while no live process hosts it.
    private func hosts(_ session: Session) -> Bool {
        switch session.kind {
        case .capture:
            return session.host == host
        case .learning:
            if session.host == host { return true }
            if session.hostIsAlive || !mayHost() { return false }
            return (try? store.claimHost(sessionID: session.id, host: host)) ?? false
        }
    }

    /// Shows the end of `session` on `activity` and keeps the activity until its end is off the screen.
    private func finish(_ activity: LiveActivity, _ session: Session?, id: String, now: Date) async {
        ended.insert(id)
        guard let session else {
            await activity.end(nil, dismissal: .immediate)  // deleted: take it down
            await activity.shutdown()
            return
        }
        var content = SessionPresenter.content(for: session, now: now, notes: notes[id])
        if !options.finalButtons { content = content.withoutButtons }
        finished[id] = Finished(activity: activity, openLink: content.buttons.isEmpty ? nil : content.openLink)
        let policy = session.kind == .capture ? options.captureDismissal : options.learningDismissal
        await activity.end(content, dismissal: policy)
        if scope == .active {
            // A long-running host answers the end's Open until the notification is gone, then lets it go.
            Task { [weak self] in
                await activity.waitUntilGone()
                await self?.release(id)
            }
        }
    }

    private func release(_ id: String) async {
        if let f = finished.removeValue(forKey: id) { await f.activity.shutdown() }
        notes[id] = nil
        localStops.withLock { _ = $0.removeValue(forKey: id) }
    }

    private func startTracking(_ session: Session) async -> Tracked {
        let id = session.id
        let activity = LiveActivity(surface: makeSurface(session), options: options.activity) { [weak self] event in
            guard let self else { return }
            Task { await self.handle(event, sessionID: id) }
        }
        // A notification left by a host that is gone is replaced, not doubled.
        if let recorded = session.notification.flatMap(NotificationHandOff.init(encoded:)) {
            await activity.adopt(recorded)
        }
        let entry = Tracked(activity: activity)
        tracked[id] = entry
        await activity.start()
        return entry
    }

    private func handle(_ event: ActivityEvent, sessionID: String) async {
        switch event {
        case .action(let action):
            if action == .stop, let stop = localStops.withLock({ $0[sessionID] }) {
                stop()
                return
            }
            do {
                try perform(.session(action: action, id: sessionID))
            } catch {
                notice("could not \(action.rawValue) the session: \(error)")
            }
            await refresh()
        case .open(let token):
            guard let link = tracked[sessionID]?.content?.openLink ?? finished[sessionID]?.openLink else { return }
            do {
                try opener.open(link, activationToken: token)
            } catch {
                notice("could not open \(link): \(error)")
            }
        case .dismissedByUser:
            tracked[sessionID]?.dismissed = true
        case .unavailable(let why):
            guard !noticed else { return }
            noticed = true
            notice("no notification server is running (\(why)); the session goes on without a live notification")
        case .posted(let handOff):
            try? store.recordNotification(sessionID: sessionID, host: host, handOff.encoded)
        case .needsRepost, .gone:
            break
        }
    }
}
