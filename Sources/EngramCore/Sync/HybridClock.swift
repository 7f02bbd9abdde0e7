import Foundation

/// A hybrid logical clock reading: wall-clock milliseconds plus a counter for events within one millisecond.
///
/// Each device issues strictly increasing readings (`tick`) and moves its clock past every reading it receives
/// (`receive`), so an edit made after seeing another always carries a later reading, whatever the wall clocks
/// say. A received reading far in the future may move the local clock at most `maxSkew` ahead of the local wall
/// clock; `receive` says when it had to hold back, so the caller can warn.
public struct HybridClock: Comparable, Sendable, Hashable, CustomStringConvertible {
    /// Milliseconds since 1970.
    public var wall: Int64
    /// Events within the same `wall` millisecond, below `counterLimit`.
    public var counter: Int

    /// How far ahead of the local wall clock a received reading may move the local clock: one day.
    public static let maxSkewMilliseconds: Int64 = 86_400_000

    /// Counters are written with six digits, so they stay below this; the event after `counterLimit - 1` within
    /// one millisecond carries into the next millisecond (`wall + 1`, counter 0). The text form keeps its fixed
    /// width, so text order (the order SQLite compares stamps in) stays the numeric order, and every existing log
    /// reads as before.
    public static let counterLimit = 1_000_000
    /// The largest wall time the 15-digit text form holds (about the year 33658).
    public static let wallLimit: Int64 = 999_999_999_999_999

    /// A reading; a counter past `counterLimit` carries into the wall.
    public init(wall: Int64, counter: Int = 0) {
        let carry = counter >= HybridClock.counterLimit ? Int64(counter / HybridClock.counterLimit) : 0
        if carry == 0 {
            (self.wall, self.counter) = (wall, counter)
        } else if wall <= HybridClock.wallLimit - carry {
            (self.wall, self.counter) = (wall + carry, counter % HybridClock.counterLimit)
        } else {
            (self.wall, self.counter) = (wall, HybridClock.counterLimit - 1)  // the end of time: saturate, never go back
        }
    }

    /// The clock's zero.
    public static let zero = HybridClock(wall: 0)

    /// The milliseconds of `date`.
    public static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }

    /// The fixed-width text form, `WWWWWWWWWWWWWWW.CCCCCC`, which sorts as the readings compare.
    public var description: String {
        let w = String(max(0, wall)), c = String(max(0, counter))
        return String(repeating: "0", count: max(0, 15 - w.count)) + w + "." + String(repeating: "0", count: max(0, 6 - c.count)) + c
    }

    /// Parses the text form; nil when it is not one (digits only: no sign, no spaces).
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 15, parts[1].count == 6,
              parts[0].utf8.allSatisfy(HybridClock.isDigit), parts[1].utf8.allSatisfy(HybridClock.isDigit),
              let w = Int64(parts[0]), let c = Int(parts[1]) else { return nil }
        self.init(wall: w, counter: c)
    }

    static func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }

    /// The next reading for a local event at wall time `now` (milliseconds).
    public func tick(now: Int64) -> HybridClock {
        now > wall ? HybridClock(wall: now) : HybridClock(wall: wall, counter: counter + 1)  // carries past the limit
    }

    /// The clock after receiving `remote` at wall time `now`, and whether `remote` was too far ahead to follow fully.
    public func receive(_ remote: HybridClock, now: Int64, maxSkew: Int64 = HybridClock.maxSkewMilliseconds) -> (clock: HybridClock, heldBack: Bool) {
        var r = remote
        var heldBack = false
        if r.wall > now + maxSkew {
            r = HybridClock(wall: now + maxSkew)
            heldBack = true
        }
        let top = max(wall, r.wall)
        if now > top { return (HybridClock(wall: now), heldBack) }
        if wall == r.wall { return (HybridClock(wall: wall, counter: max(counter, r.counter) + 1), heldBack) }
        if wall > r.wall { return (HybridClock(wall: wall, counter: counter + 1), heldBack) }
        return (HybridClock(wall: r.wall, counter: r.counter + 1), heldBack)
    }

    public static func < (a: HybridClock, b: HybridClock) -> Bool { (a.wall, a.counter) < (b.wall, b.counter) }
}

/// The identity of an operation and its place in the merge order: its clock reading and device, `<hlc>@<device>`.
///
/// Device ids have a fixed length, so the text sorts by clock first and device second: the device breaks ties.
public enum SyncStamp {
    /// The stamp of a reading made by `device`.
    public static func make(_ clock: HybridClock, _ device: String) -> String { "\(clock)@\(device)" }
}

/// This device's identity in the sync folder: a random id made once and kept in the store's settings.
public enum DeviceID {
    /// The length of every device id.
    public static let length = 16

    /// A new random device id.
    public static func make() -> String { Identifier.make(length: length) }

    /// Whether `text` has the shape of a device id (and so may name a folder under `devices/`).
    public static func isValid(_ text: String) -> Bool { text.count == length && Identifier.isMade(text) }
}
