import Foundation
import Synchronization

/// Every hook the project's tests set through the environment, read in one place; none is ever set in use.
///
/// - `ENGRAM_TEST_CRASH_AT=point[:n]`: SIGKILL at the n-th time `point` is reached, exactly as a power cut would. The
///   points: the applier's "after-write" and "after-commit" (each batch), the links' "after-autolink" and the outbox's
///   "after-prune" (each window after the index), a rebuild's "rebuild-before-swap" and "rebuild-after-swap" (also
///   reached by the first large import, which builds the index whole); `engram sync now`'s "sync-export-appended",
///   "sync-compact-written" and "sync-import-chunk".
/// - `ENGRAM_TEST_BULK_THRESHOLD=n`: the first import takes the whole-index fast path from n waiting changes.
/// - `ENGRAM_TEST_FIRST_SWEEP_MS`, `ENGRAM_TEST_CHORE_MS`, `ENGRAM_TEST_SYNC_POLL_MS`: the daemon's first sweep, its
///   chores and its sync folder checks that soon (at least 50 ms).
/// - `ENGRAM_TEST_NO_INOTIFY`: the daemon's file watchers poll instead of using inotify.
/// - `ENGRAM_TEST_LATE_RECOGNITION`: `engram listen` recognises only once the recording has ended, not during the
///   pause that ends it (the voice bench's measure of what beginning early gains).
/// - `ENGRAM_TEST_CLOCK_SKEW_S` and `ENGRAM_NOW`: the wall clock (`WallClock`, in EngramRules, which the lean feed
///   reads too): every Engram process a test world starts runs on the clock the test chose.
public struct TestHooks: Sendable {
    /// This process's hooks.
    public static let current = TestHooks(environment: ProcessInfo.processInfo.environment)

    public var crashAt: (point: String, nth: Int)?
    public var bulkThreshold: Int?
    public var firstSweep: Duration?
    public var choreInterval: Duration?
    public var syncPollInterval: Duration?
    public var noInotify = false
    public var lateRecognition = false

    /// The hooks set in `environment`.
    public init(environment: [String: String]) {
        func delay(_ name: String) -> Duration? {
            environment[name].flatMap(Int.init).map { Duration.milliseconds(max(50, $0)) }
        }
        if let spec = environment["ENGRAM_TEST_CRASH_AT"], !spec.isEmpty {
            let parts = spec.split(separator: ":")
            crashAt = (String(parts[0]), parts.count > 1 ? Int(parts[1]) ?? 1 : 1)
        }
        bulkThreshold = environment["ENGRAM_TEST_BULK_THRESHOLD"].flatMap { Int($0) }
        firstSweep = delay("ENGRAM_TEST_FIRST_SWEEP_MS")
        choreInterval = delay("ENGRAM_TEST_CHORE_MS")
        syncPollInterval = delay("ENGRAM_TEST_SYNC_POLL_MS")
        noInotify = environment["ENGRAM_TEST_NO_INOTIFY"] != nil
        lateRecognition = environment["ENGRAM_TEST_LATE_RECOGNITION"] != nil
    }

    /// The crash hook: kills this process at the configured point; nil when no crash is asked for.
    public static let crashHook: (@Sendable (String) throws -> Void)? = {
        guard let (point, nth) = current.crashAt else { return nil }
        let counter = Mutex(0)
        return { reached in
            guard reached == point else { return }
            if counter.withLock({ $0 += 1; return $0 }) >= nth { kill(getpid(), SIGKILL) }
        }
    }()
}
