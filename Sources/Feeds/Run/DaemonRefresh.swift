/// Wakes a watching feed when the daemon announces a change on the session bus, at once on any real-time
/// signal, and on the timer.
///
/// The bus is tried at the first wait (after the first line is out, so a slow bus never delays it), and
/// again at most every `retrySeconds` while there is none: without a bus or daemon the feed runs on its
/// timer exactly as `RealtimeSignalRefresh` does. A daemon that starts later is picked up without
/// reconnecting (the subscription names it, not its connection); a bus that goes away is dropped.
public struct DaemonRefresh: FeedRefreshSource {
    /// How long to wait before trying a missing or lost bus again, at the next wake after it.
    public var retrySeconds: Double = 30
    private var bus: DaemonBusWatch?
    private var nextAttempt = -Double.infinity

    /// Installs the signal handlers; the bus is connected at the first wait.
    public init() { RealtimeSignalPipe.install() }

    public mutating func wait(upTo seconds: Double) -> FeedWake {
        let now = RealtimeSignalPipe.monotonicNow()
        if bus == nil, now >= nextAttempt {
            nextAttempt = now + retrySeconds
            bus = DaemonBusWatch.connect()
        }
        return RealtimeSignalPipe.wait(upTo: seconds, bus: &bus)
    }
}
