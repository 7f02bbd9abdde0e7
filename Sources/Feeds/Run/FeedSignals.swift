#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
