import Synchronization

/// What happened to the collection, as the daemon's services hear it.
enum LibraryEvent: Sendable, Equatable {
    /// The index changed (an apply pass, a sweep, a rebuild or a compaction committed): cached results may be stale.
    case committed
    /// The store changed (this daemon's write, or another process's, noticed through its files): counts, the
    /// active context and sessions may differ.
    case storeChanged
}

/// The daemon's one stream of events, fanned out to every subscriber: search drops its cached results on a commit,
/// the glance service recomputes its properties (and so the feeds watching them refresh).
///
/// A subscriber names the events it wants and keeps only the newest one it has not read yet: a burst of commits
/// during an import wakes it once, and a slow subscriber never holds up the index writer.
final class LibraryEvents: Sendable {
    private struct Subscriber {
        var wants: Set<LibraryEvent>
        var continuation: AsyncStream<LibraryEvent>.Continuation
    }
    private let subscribers = Mutex<[Int: Subscriber]>([:])
    private let nextID = Atomic<Int>(0)

    init() {}

    /// A new stream of the events of these kinds posted from now on; it ends when `finish()` is called or the
    /// reader stops.
    func subscribe(to wants: Set<LibraryEvent>) -> AsyncStream<LibraryEvent> {
        let id = nextID.add(1, ordering: .relaxed).newValue
        let (stream, continuation) = AsyncStream.makeStream(of: LibraryEvent.self, bufferingPolicy: .bufferingNewest(1))
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        subscribers.withLock { $0[id] = Subscriber(wants: wants, continuation: continuation) }
        return stream
    }

    /// Tells every subscriber.
    func post(_ event: LibraryEvent) {
        for s in subscribers.withLock({ Array($0.values) }) where s.wants.contains(event) { s.continuation.yield(event) }
    }

    /// Ends every stream (at shutdown).
    func finish() {
        for s in subscribers.withLock({ all in defer { all = [:] }; return Array(all.values) }) { s.continuation.finish() }
    }
}
