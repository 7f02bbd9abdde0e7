import Dispatch
import Synchronization

/// What wakes a service that watches the sync folder: inotify on the folders added to `watch`, a `check` every
/// `interval`, and whatever else is fed in (`feed`). `finish()` stops them and ends `stream`.
final class FolderWakes<Wake: Sendable>: Sendable {
    /// The wakes, in order.
    let stream: AsyncStream<Wake>
    /// The inotify watch (nil when inotify is unavailable: the periodic check still runs).
    let watch: FolderWatch?
    private let continuation: AsyncStream<Wake>.Continuation
    private let tasks = Mutex<[Task<Void, Never>]>([])

    init(queue: DispatchQueue, interval: Duration, check: Wake, buffering: AsyncStream<Wake>.Continuation.BufferingPolicy) {
        let (stream, continuation) = AsyncStream.makeStream(of: Wake.self, bufferingPolicy: buffering)
        self.stream = stream
        self.continuation = continuation
        watch = FolderWatch(queue: queue) { continuation.yield(check) }
        feed {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                continuation.yield(check)
            }
        }
    }

    /// Wakes the service with `wake`.
    func yield(_ wake: Wake) { continuation.yield(wake) }

    /// Runs `body` (which calls `yield`) until `finish()`.
    func feed(_ body: @escaping @Sendable () async -> Void) {
        let task = Task { await body() }
        tasks.withLock { $0.append(task) }
    }

    /// Stops the check, the feeds and the stream; the inotify watch stops with `cancelWatch()`, once the service's
    /// last pass is done with it.
    func finish() {
        for task in tasks.withLock({ $0 }) { task.cancel() }
        continuation.finish()
    }

    /// Stops watching the folders.
    func cancelWatch() { watch?.cancel() }
}
