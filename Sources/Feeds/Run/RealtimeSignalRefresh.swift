#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Wakes on a timer, or at once on any real-time signal sent to the process.
///
/// The signals get a do-nothing handler (so one delivered to another thread cannot kill the process) and
/// are blocked in this thread, where `sigtimedwait` takes them from the pending set.
public struct RealtimeSignalRefresh: FeedRefreshSource {
    private var set = sigset_t()

    /// Installs the handler and blocks the signals in the calling thread.
    public init() {
        sigemptyset(&set)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        sigemptyset(&action.sa_mask)
        for sig in FeedSignals.realtime {
            sigaddset(&set, sig)
            sigaction(sig, &action, nil)
        }
        signal(SIGPIPE, SIG_IGN)
        FeedSignals.restoreTermination()
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    public mutating func wait(upTo seconds: Double) -> FeedWake {
        let whole = seconds.rounded(.down)
        var timeout = timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1e9))
        var info = siginfo_t()
        let sig = sigtimedwait(&set, &info, &timeout)
        return sig > 0 ? .signal(sig) : .timer
    }
}
