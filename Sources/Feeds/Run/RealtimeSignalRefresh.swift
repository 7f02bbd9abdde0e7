#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Wakes on a timer, or at once on any real-time signal sent to the process.
///
/// `DaemonRefresh` adds the daemon's announcements; this is the same wait without the session bus.
public struct RealtimeSignalRefresh: FeedRefreshSource {
    /// Installs the signal handlers.
    public init() { RealtimeSignalPipe.install() }

    public mutating func wait(upTo seconds: Double) -> FeedWake {
        var noBus: DaemonBusWatch?
        return RealtimeSignalPipe.wait(upTo: seconds, bus: &noBus)
    }
}

/// The write end of the pipe the real-time signal handler writes to; a plain global, so the handler
/// reads it without any lazy initialisation.
nonisolated(unsafe) private var signalPipeWrite: Int32 = -1
nonisolated(unsafe) private var signalPipeRead: Int32 = -1

/// Real-time signals as bytes in a pipe (the self-pipe trick), so one `poll` waits for them, the timer and
/// the bus together.
///
/// Every real-time signal gets a handler that writes its number to the pipe; they are unblocked (a bar may
/// start its modules with them blocked) and restart interrupted reads and writes (`SA_RESTART`). A signal
/// that arrives while the feed renders waits in the pipe for the next `wait`.
enum RealtimeSignalPipe {
    /// Creates the pipe once and installs the handlers.
    static func install() {
        if signalPipeRead < 0 {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { return }
            for fd in ends {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
            signalPipeRead = ends[0]
            signalPipeWrite = ends[1]
        }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { sig in
            let saved = errno
            var byte = UInt8(truncatingIfNeeded: sig)
            _ = write(signalPipeWrite, &byte, 1)
            errno = saved
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        var set = sigset_t()
        sigemptyset(&set)
        for sig in FeedSignals.realtime {
            sigaddset(&set, sig)
            sigaction(sig, &action, nil)
        }
        signal(SIGPIPE, SIG_IGN)
        FeedSignals.restoreTermination()
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Empties the pipe; the first signal that arrived, or nil.
    static func take() -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 64)
        var first: Int32?
        while true {
            let n = read(signalPipeRead, &bytes, bytes.count)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return first }
            if first == nil { first = Int32(bytes[0]) }
        }
    }

    /// Waits up to `seconds` for a signal or, given a bus, the daemon's word that the store changed.
    ///
    /// A bus that goes away is dropped (set to nil) and the wait goes on with the timer and the signals.
    static func wait(upTo seconds: Double, bus: inout DaemonBusWatch?) -> FeedWake {
        let deadline = monotonicNow() + seconds
        while true {
            if let sig = take() { return .signal(sig) }
            let left = deadline - monotonicNow()
            if left <= 0 { return .timer }
            var fds = [pollfd(fd: signalPipeRead, events: Int16(POLLIN), revents: 0)]
            if let watch = bus { fds += watch.pollEntries() }
            let ready = poll(&fds, nfds_t(fds.count), Int32(min((left * 1000).rounded(.up), 86_400_000)))
            if ready < 0 && errno != EINTR {
                // Cannot happen with these descriptors; never spin on it.
                bus = nil
                var rest = timespec(tv_sec: Int(left), tv_nsec: Int((left - left.rounded(.down)) * 1e9))
                nanosleep(&rest, nil)
                return .timer
            }
            let busFDs = fds.dropFirst()
            guard busFDs.contains(where: { $0.revents != 0 }), let watch = bus else { continue }
            switch watch.service(busFDs) {
            case .changed: return .storeChanged
            case .lost: bus = nil
            case nil:
                // A hung-up socket that libdbus has not called lost yet must not make poll spin.
                if busFDs.contains(where: { $0.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 }) { bus = nil }
            }
        }
    }

    /// Seconds on the monotonic clock.
    static func monotonicNow() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
