import EngramCore
import Foundation

/// The controller that keeps live activities in step with the sessions in the store.
///
/// It reads the store every `pollInterval`, so a session paused from the CLI, a deep link or D-Bus shows
/// as paused within a second; and it turns the buttons of an activity back into the store's state machine
/// through `perform` (the same `LinkHandler` every front end uses). One activity per session: it is
/// created when the session is seen active, ended with the session, and never re-created after the person
/// dismissed it. The daemon hosts one for every active session; `engram session start --follow` and
/// `engram capture` host one for their own session.
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
        /// Every active session (the newest learning and the newest capture session); runs until cancelled.
        case active
        /// One session; `run()` returns once it has ended and its end is shown.
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

        /// Creates options.
        public init(pollInterval: Duration = .milliseconds(500), activity: LiveActivity.Options = .init(),
                    learningDismissal: DismissalPolicy = .default, captureDismissal: DismissalPolicy = .after(.seconds(60))) {
            self.pollInterval = pollInterval
            self.activity = activity
            self.learningDismissal = learningDismissal
            self.captureDismissal = captureDismissal
        }
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

    private let store: Store
    private let scope: Scope
    private let options: Options
    private let makeSurface: SurfaceFactory
    private let perform: Perform
    private let opener: any LinkOpener
    private let notice: @Sendable (String) -> Void

    private var tracked: [String: Tracked] = [:]
    private var finished: [String: LiveActivity] = [:]
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
    public init(store: Store, scope: Scope = .active, options: Options = Options(),
                surfaces: @escaping SurfaceFactory,
                perform: Perform? = nil,
                opener: any LinkOpener = ProcessLinkOpener(),
                notice: @escaping @Sendable (String) -> Void = { _ in }) {
        self.store = store
        self.scope = scope
        self.options = options
        self.makeSurface = surfaces
        self.perform = perform ?? { link in
            if case .session(let action, let id) = link { try store.transition(action, sessionID: id) }
        }
        self.opener = opener
        self.notice = notice
    }

    /// Follows the store until cancelled, or, for one session, until it has ended and its end is shown.
    public func run() async {
        while !Task.isCancelled, !done {
            await refresh()
            if done { break }
            try? await Task.sleep(for: options.pollInterval)
        }
        if Task.isCancelled {
            for (_, t) in tracked { await t.activity.shutdown() }
            tracked = [:]
        }
    }

    /// Reads the store now and brings every activity up to date.
    public func refresh() async {
        generation += 1
        let sessions: [Session]
        do {
            switch scope {
            case .active:
                sessions = [try store.activeSession(kind: .learning), try store.activeSession(kind: .capture)].compactMap { $0 }
            case .session(let id):
                sessions = [try store.session(id: id)].compactMap { $0 }
                if sessions.isEmpty { done = true }
            }
        } catch {
            return  // An unreadable store is a missed update; the watchdog shows it if it lasts.
        }
        let now = store.clock()
        let active = sessions.filter(\.isActive)
        for session in active where !ended.contains(session.id) {
            var entry: Tracked
            if let existing = tracked[session.id] { entry = existing } else { entry = await startTracking(session) }
            let content = SessionPresenter.content(for: session, now: now, notes: notes[session.id])
            tracked[session.id]?.content = content
            if !entry.dismissed { await entry.activity.update(content, sequence: generation) }
        }
        let activeIDs = Set(active.map(\.id))
        for (id, entry) in tracked where !activeIDs.contains(id) {
            tracked[id] = nil
            finished[id] = entry.activity
            ended.insert(id)
            let session = sessions.first { $0.id == id } ?? (try? store.session(id: id)) ?? nil
            guard let session else {
                await entry.activity.end(nil, dismissal: .immediate)
                continue
            }
            let policy = session.kind == .capture ? options.captureDismissal : options.learningDismissal
            await entry.activity.end(SessionPresenter.content(for: session, now: now, notes: notes[id]), dismissal: policy)
            if scope == .active {
                // A long-running host lets an ended activity go once its dismissal has run.
                let activity = entry.activity
                Task { [weak self] in
                    await activity.waitForDismissal()
                    await self?.release(id)
                }
            }
        }
        if case .session(let id) = scope, let session = sessions.first, !session.isActive,
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

    /// Records the capture session's phase (processing, with progress).
    public func notePhase(sessionID: String, _ phase: CapturePhase) async {
        notes[sessionID, default: CaptureNotes()].phase = phase
        await refresh()
    }

    /// The activity following `sessionID`, while it is followed or after it ended.
    public func activity(for sessionID: String) -> LiveActivity? {
        tracked[sessionID]?.activity ?? finished[sessionID]
    }

    /// Waits until every timed dismissal has run.
    public func waitForDismissals() async {
        for activity in finished.values { await activity.waitForDismissal() }
    }

    /// Cancels the timed dismissals still pending and returns what a helper process needs to carry them out.
    public func handOffDismissals() async -> [(NotificationHandOff, remaining: Duration)] {
        var out: [(NotificationHandOff, remaining: Duration)] = []
        for activity in finished.values {
            if let handOff = await activity.handOffDismissal() { out.append(handOff) }
        }
        return out
    }

    // MARK: Private

    private func release(_ id: String) async {
        if let activity = finished.removeValue(forKey: id) { await activity.shutdown() }
        notes[id] = nil
    }

    private func startTracking(_ session: Session) async -> Tracked {
        let id = session.id
        let activity = LiveActivity(surface: makeSurface(session), options: options.activity) { [weak self] event in
            guard let self else { return }
            Task { await self.handle(event, sessionID: id) }
        }
        let entry = Tracked(activity: activity)
        tracked[id] = entry
        await activity.start()
        return entry
    }

    private func handle(_ event: ActivityEvent, sessionID: String) async {
        switch event {
        case .action(let action):
            do {
                try perform(.session(action: action, id: sessionID))
            } catch {
                notice("could not \(action.rawValue) the session: \(error)")
            }
            await refresh()
        case .open(let token):
            let link = tracked[sessionID]?.content?.openLink ?? DeepLink.stats.url
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
        case .needsRepost:
            break
        }
    }
}
