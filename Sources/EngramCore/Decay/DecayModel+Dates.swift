import Foundation

/// The core's memories on the shared forgetting curve (`EngramRules.DecayModel`), with `Date`s.
extension Memory: Fading {
    /// `lastReinforced` in seconds since 1970.
    public var lastReinforcedInstant: Double { lastReinforced.timeIntervalSince1970 }
}

extension DecayModel {
    /// The decay score in (0, 1] at `now`: 1 when just reinforced or pinned.
    public func score(of memory: Memory, at now: Date) -> Double {
        score(of: memory, at: now.timeIntervalSince1970)
    }

    /// When `memory` leaves the search index, or nil if it never does (pinned).
    public func expiry(of memory: Memory) -> Date? {
        lifetime(of: memory).map { memory.lastReinforced.addingTimeInterval($0) }
    }

    /// Whether `memory` has faded out of search at `now`.
    public func isExpired(_ memory: Memory, at now: Date) -> Bool {
        expiry(of: memory).map { $0 <= now } ?? false
    }

    /// Days left before `memory` fades from search (negative once it has), or nil if pinned.
    public func daysLeft(_ memory: Memory, at now: Date) -> Double? {
        expiry(of: memory).map { $0.timeIntervalSince(now) / Self.day }
    }

    /// Whether `memory` has faded at `now`, fades within `MemoryStats.fadingHorizon`, or neither.
    public func fadingState(of memory: Memory, at now: Date) -> FadingState {
        FadingState(secondsLeft: expiry(of: memory)?.timeIntervalSince(now))
    }
}
