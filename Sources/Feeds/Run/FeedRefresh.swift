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
/// `RealtimeSignalRefresh` wakes on a timer or a real-time signal; `DaemonRefresh`, which `--watch` uses,
/// also returns `.storeChanged` when the daemon's `org.freedesktop.DBus.Properties.PropertiesChanged` on
/// `/org/engram/Engram` arrives (one `poll` on the bus socket and the signals' pipe, with the same
/// timeout), so bars update the moment a memory is captured.
public protocol FeedRefreshSource {
    /// Blocks until the next reason to render, at most `seconds`.
    mutating func wait(upTo seconds: Double) -> FeedWake
}
