#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a watching feed renders again.
public enum FeedWake: Sendable, Equatable {
    /// The interval passed.
    case timer
    /// A real-time signal asked for a refresh now (`pkill -RTMIN+N …`).
    case signal(Int32)
    /// The store changed (reported by a push source such as the daemon's D-Bus signal).
    case storeChanged
}

/// Tells a watching feed when to render again.
///
/// This is where push updates plug in: today `RealtimeSignalRefresh` wakes on a timer or a real-time
/// signal. The daemon's `org.freedesktop.DBus.Properties.PropertiesChanged` signal on
/// `/org/engram/Engram` will plug in as another `FeedRefreshSource` that returns `.storeChanged` when it
/// arrives (waiting on the bus fd with the same timeout), so bars update the moment a memory is captured.
public protocol FeedRefreshSource {
    /// Blocks until the next reason to render, at most `seconds`.
    mutating func wait(upTo seconds: Double) -> FeedWake
}

/// Real-time signals, for feeds.
///
/// Bars refresh their modules with `pkill -RTMIN+N waybar`; a careless pattern also hits feed processes,
/// and the default action of a real-time signal is to terminate. A one-shot feed ignores them; a watching
/// feed takes them as "refresh now".
public enum FeedSignals {
    /// SIGRTMIN…SIGRTMAX of this C library.
    public static var realtime: ClosedRange<Int32> { __libc_current_sigrtmin()...__libc_current_sigrtmax() }

    /// Ignores every real-time signal, and SIGPIPE (a closed pipe is then a write error, handled as "stop").
    public static func ignoreForOneShot() {
        for sig in realtime { signal(sig, SIG_IGN) }
        signal(SIGPIPE, SIG_IGN)
        restoreTermination()
    }

    /// Makes SIGTERM, SIGINT and SIGHUP end the process again, even when the parent (a bar) left them
    /// blocked or ignored: Waybar stops its modules with `killpg(…, SIGTERM)`.
    public static func restoreTermination() {
        var set = sigset_t()
        sigemptyset(&set)
        for sig in [SIGTERM, SIGINT, SIGHUP] {
            signal(sig, SIG_DFL)
            sigaddset(&set, sig)
        }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }
}

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
