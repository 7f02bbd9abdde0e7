import EngramCore
import Foundation

/// A capture session: each line becomes a memory (source “capture”), then captures are processed
/// (indexed and auto-linked) and the session completes. The live activity, if any, follows along:
/// capturing → processing → complete.
public final class LiveCapture: Sendable {
    /// The store written to.
    public let store: Store
    /// The session, as started.
    public let session: Session
    /// The controller showing the session, or nil when there is nothing to show it on.
    public let live: LiveSession?

    /// Starts a capture session in the store; `live` (if given) should follow it.
    public init(store: Store, title: String = "Capture", live: (Session) -> LiveSession?) throws {
        self.store = store
        self.session = try store.startCaptureSession(title: title)
        self.live = live(session)
    }

    /// Whether the session still takes captures (nobody pressed Stop or ran `engram session stop`).
    public func isCapturing() -> Bool {
        ((try? store.session(id: session.id)) ?? nil)?.state == .running
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

    /// Processes the captures with `process` (given a progress callback), then completes the session
    /// (unless it was stopped) and returns it as it ended.
    public func finish(process: @Sendable (@escaping @Sendable (Int, Int) -> Void) throws -> Void) async throws -> Session {
        let (progress, sink) = AsyncStream<(Int, Int)>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let live = self.live
        let id = session.id
        // One consumer keeps progress in order; only the newest value matters.
        let forward = Task {
            for await (done, total) in progress { await live?.notePhase(sessionID: id, .processing(done: done, total: total)) }
        }
        await live?.notePhase(sessionID: id, .processing(done: 0, total: 0))
        var failure: (any Error)?
        do {
            try process { done, total in sink.yield((done, total)) }
        } catch {
            failure = error
        }
        sink.finish()
        await forward.value
        let ended = try store.completeSession(id: id)
        await live?.refresh()
        if let failure { throw failure }
        return ended
    }
}
