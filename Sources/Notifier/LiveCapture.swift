import EngramCore
import Foundation
import Synchronization

/// A capture session: each line becomes a memory (source “capture”), then captures are processed
/// (indexed and auto-linked) and the session completes. The live activity, if any, follows along:
/// capturing → processing (held until linking is done) → complete.
///
/// The capture belongs to this process (the session's host): it ends when the input does, or when the
/// notification's Done button asks it to (`endRequests`), never from outside while this process runs.
public final class LiveCapture: Sendable {
    /// The store written to.
    public let store: Store
    /// The session, as started.
    public let session: Session
    /// The controller showing the session, or nil when there is nothing to show it on.
    public let live: LiveSession?
    /// Earlier captures whose process had died, ended as interrupted when this one started.
    public let interrupted: [Session]

    private let ending = Mutex<(requested: Bool, handlers: [@Sendable () -> Void])>((false, []))

    /// Ends captures whose process died, starts a capture session hosted by this process, and has `live`
    /// (if it returns one) follow it; the activity's Done button then ends this capture.
    public init(store: Store, title: String = "Capture", live: (Session) -> LiveSession?) throws {
        self.store = store
        self.interrupted = try store.endOrphanedCaptures()
        self.session = try store.startCaptureSession(title: title)
        self.live = live(session)
        self.live?.routeStop(of: session.id) { [weak self] in self?.requestEnd() }
    }

    /// Asks the capture to end (the Done button, Ctrl-C): input stops being read once what was already read is captured.
    public func requestEnd() {
        let handlers = ending.withLock { state -> [@Sendable () -> Void] in
            guard !state.requested else { return [] }
            state.requested = true
            return state.handlers
        }
        for handler in handlers { handler() }
    }

    /// Whether the end was asked for.
    public var endRequested: Bool { ending.withLock { $0.requested } }

    /// Calls `handler` when the end is asked for (at once if it was).
    public func onEndRequest(_ handler: @escaping @Sendable () -> Void) {
        let now = ending.withLock { state -> Bool in
            if state.requested { return true }
            state.handlers.append(handler)
            return false
        }
        if now { handler() }
    }

    /// Remembers one line; blank lines are skipped (nil).
    @discardableResult
    public func capture(_ line: String, type: MemoryType = .note, tags: [String] = [], context: String? = nil) async throws -> Memory? {
        let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return nil }
        let memory = try store.remember(MemoryDraft(content: text, type: type, tags: tags, context: context, source: "capture")).memory
        try store.recordCapture(sessionID: session.id)
        await live?.noteCapture(sessionID: session.id, memory: memory)
        return memory
    }

    /// Processes the captures with `process` (given a progress callback; it says whether the captures are
    /// linked now), then completes the session and returns it as it ended.
    public func finish(process: @Sendable (@escaping @Sendable (Int, Int) -> Void) throws -> Bool) async throws -> Session {
        let (progress, sink) = AsyncStream<(Int, Int)>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let live = self.live
        let id = session.id
        // One consumer keeps progress in order; only the newest value matters.
        let forward = Task {
            for await (done, total) in progress { await live?.notePhase(sessionID: id, .processing(done: done, total: total)) }
        }
        // “Processing” reaches the screen before linking starts, and stays until it is done.
        await live?.notePhase(sessionID: id, .processing(done: 0, total: 0))
        var failure: (any Error)?
        var linked = false
        do {
            linked = try process { done, total in sink.yield((done, total)) }
        } catch {
            failure = error
        }
        sink.finish()
        await forward.value
        await live?.noteLinked(sessionID: id, linked)
        let ended = try store.completeSession(id: id)
        await live?.refresh()
        if let failure { throw failure }
        return ended
    }
}
