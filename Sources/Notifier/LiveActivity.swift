/// One live activity (ActivityKit's word): a single on-screen item that follows a session from start to end.
///
/// Updates are coalesced: the first goes out at once, later ones at most once per `minimumInterval`, and
/// the newest state always goes out last. Updates carrying a sequence number no newer than one already
/// accepted are dropped as stale; content equal to what is shown is not sent again. Only what the surface
/// accepted counts as shown: after a failed presentation (a refused flood, a timeout) the newest state is
/// tried again, within the same budget and backing off while failures last. A watchdog shows the
/// activity as stalled when no update came for `staleAfter`. Ending is idempotent; once the person
/// dismisses it, nothing is shown again — not even the end.
public actor LiveActivity {
    /// Timing.
    public struct Options: Sendable {
        /// The shortest time between two presentations (ActivityKit's budget: about one a second).
        public var minimumInterval: Duration
        /// After this long without an update, the activity is shown as stalled; nil turns the watchdog off.
        public var staleAfter: Duration?
        /// The longest wait between two tries while presentations keep failing (the wait doubles from `minimumInterval`).
        public var maximumRetryInterval: Duration

        /// Creates options.
        public init(minimumInterval: Duration = .seconds(1), staleAfter: Duration? = .seconds(120),
                    maximumRetryInterval: Duration = .seconds(30)) {
            self.minimumInterval = minimumInterval
            self.staleAfter = staleAfter
            self.maximumRetryInterval = maximumRetryInterval
        }
    }

    /// Where the activity is in its life.
    public enum Phase: Sendable, Equatable {
        /// Being updated.
        case active
        /// Shown as stalled: no update came in time.
        case stale
        /// Ended: the final state was shown (or there was nothing to show it on).
        case ended
        /// The person dismissed it: nothing more is shown.
        case dismissed
    }

    /// Counts that show how updates were coalesced.
    public struct Statistics: Sendable, Equatable {
        /// Updates handed to `update`.
        public var received = 0
        /// Updates dropped because a newer sequence number had been accepted.
        public var droppedStale = 0
        /// Updates replaced by a newer one before they were presented.
        public var coalesced = 0
        /// Presentations skipped because the content was unchanged.
        public var unchanged = 0
        /// Presentations the surface accepted (the final one included).
        public var presented = 0
        /// Presentations that failed or found nothing to show them on.
        public var failed = 0
    }

    private let surface: any ActivitySurface
    private let options: Options
    private let onEvent: @Sendable (ActivityEvent) -> Void

    private(set) public var phase = Phase.active
    private(set) public var statistics = Statistics()
    private var sequence: UInt64 = 0
    /// Offered and not yet accepted by the surface (a failed presentation puts its content back here).
    private var pending: ActivityContent?
    /// What the surface last accepted.
    private var shown: ActivityContent?
    /// The newest content offered (the watchdog's base).
    private var latest: ActivityContent?
    private var repost = false
    /// The surface has nothing to show on: wait for it to ask for a repost.
    private var waiting = false
    /// Presentations failed in a row (the retry wait doubles with each).
    private var failures = 0
    private var final: (ActivityContent?, DismissalPolicy)?
    /// The ended activity is off the screen (or never made it there).
    private var gone = false
    private var lastPresentedAt: ContinuousClock.Instant?
    private var lastUpdateAt = ContinuousClock.now
    private var endWaiters: [CheckedContinuation<Void, Never>] = []
    private var flushWaiters: [CheckedContinuation<Void, Never>] = []
    private var goneWaiters: [CheckedContinuation<Void, Never>] = []
    private var dismissal: Task<Void, Never>?
    private var dismissalDeadline: ContinuousClock.Instant?
    private var tasks: [Task<Void, Never>] = []
    private let wake: AsyncStream<Void>.Continuation
    private let wakeStream: AsyncStream<Void>

    /// Creates an activity on `surface`; `onEvent` hears the person's actions and dismissals.
    public init(surface: any ActivitySurface, options: Options = Options(),
                onEvent: @escaping @Sendable (ActivityEvent) -> Void = { _ in }) {
        self.surface = surface
        self.options = options
        self.onEvent = onEvent
        (wakeStream, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Starts delivering; call once before the first update.
    public func start() {
        guard tasks.isEmpty else { return }
        tasks.append(Task { await self.deliveryLoop() })
        let events = surface.events()
        tasks.append(Task { [weak self] in
            for await event in events {
                guard let self else { return }
                await self.handle(event)
            }
        })
        if let staleAfter = options.staleAfter {
            tasks.append(Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: staleAfter / 4)
                    guard let self else { return }
                    await self.checkStale(staleAfter)
                }
            })
        }
    }

    /// Takes over a notification another process showed, so the first presentation replaces it.
    public func adopt(_ handOff: NotificationHandOff) async {
        await surface.adopt(handOff)
    }

    /// Offers new content. With a `sequence`, content older than what was already accepted is dropped.
    public func update(_ content: ActivityContent, sequence: UInt64? = nil) {
        statistics.received += 1
        guard final == nil, phase == .active || phase == .stale else { return }
        let number = sequence ?? self.sequence + 1
        guard number > self.sequence else {
            statistics.droppedStale += 1
            return
        }
        self.sequence = number
        lastUpdateAt = .now
        if phase == .stale { phase = .active }
        if pending != nil { statistics.coalesced += 1 }
        pending = content
        latest = content
        wake.yield()
    }

    /// Waits until the content offered last has been presented (or has failed to be), so a state the
    /// person should see (“Processing”) reaches the screen before what follows replaces it.
    public func flush() async {
        guard pending != nil, !waiting, final == nil, phase == .active || phase == .stale, !tasks.isEmpty else { return }
        await withCheckedContinuation { flushWaiters.append($0) }
    }

    /// Shows the final state (or the latest one) and applies `dismissal`; returns once it is shown.
    ///
    /// Ending again does nothing. After a dismissal by the person, nothing is shown.
    public func end(_ content: ActivityContent? = nil, dismissal policy: DismissalPolicy = .default) async {
        guard final == nil, phase != .ended, !tasks.isEmpty else { return }
        final = (content, policy)
        wake.yield()
        await withCheckedContinuation { endWaiters.append($0) }
    }

    /// Waits until a timed dismissal has taken the activity down (at once if none is pending).
    public func waitForDismissal() async {
        await dismissal?.value
    }

    /// Waits until the ended activity is off the screen: dismissed, closed by the person or the server,
    /// removed by its dismissal policy, or never shown. Until then its buttons may still be pressed.
    public func waitUntilGone() async {
        guard !gone else { return }
        await withCheckedContinuation { goneWaiters.append($0) }
    }

    /// Cancels a pending timed dismissal and returns what another process needs to carry it out, and when.
    public func handOffDismissal() async -> (NotificationHandOff, remaining: Duration)? {
        guard let task = dismissal, let deadline = dismissalDeadline else { return nil }
        task.cancel()
        dismissal = nil
        guard let handOff = await surface.handOff() else { return nil }
        return (handOff, max(.zero, deadline - .now))
    }

    /// Stops everything without an end (the host is shutting down): a live item nobody will update is
    /// taken down, and an ended one still on screen loses the buttons nobody will answer.
    public func shutdown() async {
        for task in tasks { task.cancel() }
        tasks = []
        wake.finish()
        if phase == .active || phase == .stale {
            await surface.remove()
        } else if phase == .ended, !gone, let shown, !shown.buttons.isEmpty {
            await surface.present(shown.withoutButtons, as: .final(final?.1 ?? .default))
        }
        markGone()
        resumeEndWaiters()
        resumeFlushWaiters()
        await surface.detach()
    }

    // MARK: Delivery

    private func deliveryLoop() async {
        for await _ in wakeStream {
            while !Task.isCancelled {
                if let (content, policy) = final, phase != .ended {
                    await deliverFinal(content ?? latest ?? shown, policy)
                    resumeFlushWaiters()
                    return
                }
                guard phase != .dismissed, !waiting || repost, pending != nil || repost else { break }
                if let last = lastPresentedAt {
                    let due = last + retryInterval
                    // Sleep in short steps so an end is never held back by the throttle.
                    while ContinuousClock.now < due, final == nil, !Task.isCancelled {
                        try? await Task.sleep(for: min(.milliseconds(50), due - .now))
                    }
                    if final != nil { continue }
                }
                guard let content = pending ?? (repost ? shown : nil) else { break }
                let forced = repost
                pending = nil
                repost = false
                if content == shown, !forced {
                    statistics.unchanged += 1
                    continue
                }
                let kind: PresentationKind = (shown?.status == content.status && !forced) ? .tick : .transition
                lastPresentedAt = .now
                let outcome = await surface.present(content, as: kind)
                switch outcome {
                case .shown:
                    statistics.presented += 1
                    shown = content
                    failures = 0
                case .failed, .unavailable:
                    statistics.failed += 1
                    // Not on screen: the newest state goes out on the next try (or repost).
                    if pending == nil { pending = content }
                    if forced { repost = true }
                    if outcome == .unavailable {
                        waiting = true
                        shown = nil
                    } else {
                        failures += 1
                    }
                }
                // A flush waits for the newest content, not for one presentation that was already on its way.
                if pending == nil || outcome != .shown { resumeFlushWaiters() }
            }
            resumeFlushWaiters()
        }
    }

    /// The wait before the next presentation: the budget, doubled for each failure in a row, up to the maximum.
    private var retryInterval: Duration {
        guard failures > 1 else { return options.minimumInterval }
        let longest = max(options.maximumRetryInterval, options.minimumInterval)
        var interval = options.minimumInterval
        for _ in 1..<min(failures, 16) where interval < longest { interval *= 2 }
        return min(interval, longest)
    }

    private func deliverFinal(_ content: ActivityContent?, _ policy: DismissalPolicy) async {
        let wasDismissed = phase == .dismissed
        phase = wasDismissed ? .dismissed : .ended
        pending = nil
        guard !wasDismissed, let content, await presentFinal(content, policy) else {
            markGone()
            resumeEndWaiters()
            return
        }
        switch policy {
        case .immediate:
            await surface.remove()
            markGone()
        case .after(let delay):
            dismissalDeadline = .now + delay
            let surface = self.surface
            dismissal = Task { [weak self] in
                try? await Task.sleep(for: delay)
                guard !Task.isCancelled else { return }
                await surface.remove()
                await self?.markGone()
            }
        case .default:
            if content.buttons.isEmpty { markGone() }  // nothing left to answer: the host may let it go
        }
        resumeEndWaiters()
    }

    /// Presents the end, trying again (a few times, a budget apart) if the server fails it; whether it is shown.
    private func presentFinal(_ content: ActivityContent, _ policy: DismissalPolicy) async -> Bool {
        for attempt in 0..<3 {
            if attempt > 0 { try? await Task.sleep(for: options.minimumInterval) }
            switch await surface.present(content, as: .final(policy)) {
            case .shown:
                statistics.presented += 1
                shown = content
                return true
            case .failed:
                statistics.failed += 1
            case .unavailable:
                statistics.failed += 1
                return false
            }
        }
        return false
    }

    private func markGone() {
        gone = true
        let waiters = goneWaiters
        goneWaiters = []
        for waiter in waiters { waiter.resume() }
    }

    private func resumeEndWaiters() {
        let waiters = endWaiters
        endWaiters = []
        for waiter in waiters { waiter.resume() }
    }

    private func resumeFlushWaiters() {
        let waiters = flushWaiters
        flushWaiters = []
        for waiter in waiters { waiter.resume() }
    }

    // MARK: Events and watchdog

    private func handle(_ event: ActivityEvent) {
        switch event {
        case .dismissedByUser:
            if phase == .ended {
                markGone()
                return
            }
            phase = .dismissed
            pending = nil
            resumeFlushWaiters()
        case .gone:
            if phase == .ended { markGone() }
            return  // while live, the next change shows it again
        case .needsRepost:
            guard phase == .active || phase == .stale, shown != nil || pending != nil else { return }
            // Even with an update pending: a host that polls offers the same content again and again, and
            // content equal to what was shown is skipped unless a repost forces it out to the new server.
            repost = true
            waiting = false
            failures = 0
            wake.yield()
            return
        default:
            break
        }
        onEvent(event)
    }

    private func checkStale(_ staleAfter: Duration) {
        guard phase == .active, final == nil, let base = latest, ContinuousClock.now - lastUpdateAt >= staleAfter else { return }
        phase = .stale
        let seconds = Double((ContinuousClock.now - lastUpdateAt).components.seconds)
        pending = base.stalled(after: Int(seconds))
        wake.yield()
    }
}
