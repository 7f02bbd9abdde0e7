import DBus
import EngramCore

/// A live activity shown as a KDE job view: Plasma draws its progress and offers Pause, Resume and Cancel.
///
/// The view is requested on the first presentation, updated in place, and terminated at the end (after a
/// final update, as KJobWidgets does). When the server restarts the view is requested again.
public actor JobViewSurface: ActivitySurface {
    private let service: any JobViewService
    private let desktopEntry: String
    private let appName: String
    private let icon: String
    private let continuation: AsyncStream<ActivityEvent>.Continuation
    private let stream: AsyncStream<ActivityEvent>
    private var view: (any JobView)?
    private var capabilities: JobViewCapabilities = []
    private var terminated = false
    private var unavailable = false
    private var hasShown = false
    private var detached = false
    private var generation = 0

    /// Creates a surface on `service`.
    public init(service: any JobViewService, desktopEntry: String = EngramBus.desktopEntry, appName: String = "Engram",
                icon: String = EngramBus.desktopEntry) {
        self.service = service
        self.desktopEntry = desktopEntry
        self.appName = appName
        self.icon = icon
        (stream, continuation) = AsyncStream<ActivityEvent>.makeStream(bufferingPolicy: .unbounded)
        let owners = service.ownerChanges()
        Task { [weak self] in
            for await owner in owners {
                guard let self else { return }
                await self.serverChanged(owner: owner)
            }
        }
    }

    public nonisolated func events() -> AsyncStream<ActivityEvent> { stream }

    @discardableResult
    public func present(_ content: ActivityContent, as kind: PresentationKind) async -> PresentOutcome {
        guard !terminated, !unavailable, !detached else { return .unavailable }
        do {
            let view = try await currentView(for: content)
            try await view.update(Self.properties(for: content))
            hasShown = true
            if kind.isFinal {
                try await view.terminate(errorCode: 0, message: "")
                terminated = true
                continuation.yield(.gone)  // a finished job has no buttons left: nothing more to answer
            }
            return .shown
        } catch NotificationServerError.unavailable(let why) {
            unavailable = true
            view = nil
            continuation.yield(.unavailable(why))
            return .unavailable
        } catch NotificationServerError.failed(let why) where why.contains(DBusError.Name.unknownObject) {
            view = nil  // The view is gone: ask for a fresh one next time.
            return .failed
        } catch {
            // Refused as a flood or timed out: the view (if any) stays, and the activity tries the latest state again.
            return .failed
        }
    }

    public func remove() async {
        guard let view, !terminated else { return }
        terminated = true
        try? await view.terminate(errorCode: 0, message: "")
    }

    public func handOff() async -> NotificationHandOff? { nil }

    public func adopt(_ handOff: NotificationHandOff) async {}  // a job view is not kept across processes

    public func detach() async {
        detached = true
        continuation.finish()
    }

    private func currentView(for content: ActivityContent) async throws -> any JobView {
        if let view { return view }
        var caps: JobViewCapabilities = []
        if content.buttons.contains(where: { $0.action == .stop }) { caps.insert(.cancellable) }
        if content.buttons.contains(where: { $0.action == .pause || $0.action == .resume }) { caps.insert(.suspendable) }
        let view = try await service.requestView(desktopEntry: desktopEntry, appName: appName, icon: icon, capabilities: caps)
        self.view = view
        generation += 1
        let mine = generation
        let requests = view.requests()
        Task { [weak self] in
            for await request in requests {
                guard let self else { return }
                await self.handle(request, generation: mine)
            }
        }
        return view
    }

    private func handle(_ request: JobViewRequest, generation mine: Int) {
        guard mine == generation, !terminated, !detached else { return }
        switch request {
        case .suspend: continuation.yield(.action(.pause))
        case .resume: continuation.yield(.action(.resume))
        case .cancel: continuation.yield(.action(.stop))
        }
    }

    private func serverChanged(owner: String?) {
        view = nil
        generation += 1
        guard owner != nil, !detached, !terminated else { return }
        let wasWaiting = unavailable
        unavailable = false
        if hasShown || wasWaiting { continuation.yield(.needsRepost) }
    }

    /// The job view fields for `content`.
    static func properties(for content: ActivityContent) -> JobViewProperties {
        var p = JobViewProperties(title: NotificationText.line(content.title, limit: 120),
                                  infoMessage: NotificationText.line(content.status, limit: 40))
        if let progress = content.progress {
            p.percent = UInt32(progress.percent)
            p.items = (UInt64(max(0, progress.done)), UInt64(max(0, progress.total)))
        }
        if let first = content.details.first { p.description1 = ("Progress", NotificationText.line(first, limit: 160)) }
        if let quote = content.quote { p.description2 = ("Last", NotificationText.line(quote, limit: 200)) }
        p.suspended = content.buttons.contains { $0.action == .resume }
        return p
    }
}
