import Foundation

/// A clock tests can move, for a store's `clock:`.
public final class TestClock: @unchecked Sendable {
    /// The tests' usual start: Sunday 22 November 2026, 10:00 UTC.
    public static let start = Date(timeIntervalSince1970: 1_795_341_600)

    private let lock = NSLock()
    private var current: Date

    /// A clock at `start`.
    public init(_ start: Date = TestClock.start) { current = start }

    /// The clock's time.
    public var now: Date { lock.lock(); defer { lock.unlock() }; return current }

    /// Moves the clock on by `seconds`.
    public func advance(seconds: Double) { lock.lock(); current += seconds; lock.unlock() }

    /// Moves the clock on by `days` of 86,400 seconds.
    public func advance(days: Double) { advance(seconds: days * 86_400) }

    /// Sets the clock to `date`.
    public func set(_ date: Date) { lock.lock(); current = date; lock.unlock() }
}
