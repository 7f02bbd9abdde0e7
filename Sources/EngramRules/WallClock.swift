#if canImport(Glibc)
import Glibc
#endif

/// The wall clock every Engram process reads for what it stores, ranks and shows: the C library's, unless a test
/// chose another through the environment (read once per process, where `TestHooks` documents every hook):
///
/// - `ENGRAM_TEST_CLOCK_SKEW_S=S`: the clock runs S seconds ahead (behind when negative). A test world sets one skew
///   for every Engram process it starts, so they all agree on "now" and time still passes: a fixture written for
///   another day runs on that day, and a device can run ten minutes off its peer (sync tests).
/// - `ENGRAM_NOW=ISO 8601`: the clock stands still at that instant (one-shot feeds for screenshots and benchmarks).
///
/// Intervals (timeouts, progress, rate limits) are measured on monotonic clocks, never on this one.
public enum WallClock {
    /// `ENGRAM_NOW`, when set to a readable instant.
    public static let pinned: Double? = environment("ENGRAM_NOW").flatMap(Timestamp.parse)
    /// `ENGRAM_TEST_CLOCK_SKEW_S`, or 0.
    public static let skew: Double = environment("ENGRAM_TEST_CLOCK_SKEW_S").flatMap(Double.init) ?? 0

    /// Now, in seconds since 1970.
    public static func now() -> Double { pinned ?? currentInstant() + skew }

    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
    }
}
