import EngramRules
import Testing

/// A memory on the curve, without a store.
struct Probe: Fading {
    var type: MemoryType = .note
    var useCount = 0
    var pinned = false
    var lastReinforcedInstant = 1.7e9
}

/// A deterministic generator, so failures reproduce.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct DecayModelTests {
    let model = DecayModel.standard
    let day = DecayModel.day

    @Test func theScoreHalvesEveryHalfLifeAndUsesStretchItUpToTheCap() {
        let note = Probe()
        #expect(model.score(of: note, at: note.lastReinforcedInstant) == 1)
        #expect(abs(model.score(of: note, at: note.lastReinforcedInstant + 30 * day) - 0.5) < 1e-12)
        #expect(abs(model.halfLife(of: Probe(useCount: 2)) - 30 * day * 1.8 * 1.8) < 1e-6)
        #expect(model.halfLife(of: Probe(useCount: 50)) == model.halfLife(of: Probe(useCount: 8)))
        #expect(model.halfLife(of: Probe(useCount: -3)) == model.halfLife(of: Probe()))
        #expect(model.halfLife(of: Probe(type: .task)) < model.halfLife(of: Probe(type: .quote)))
    }

    @Test func expiryIsWhenAgeEqualsAYearTimesTheScore() throws {
        for type in MemoryType.allCases {
            let m = Probe(type: type, useCount: 2)
            let expiry = try #require(model.expiry(of: m))
            let age = expiry - m.lastReinforcedInstant
            #expect(abs(age - DecayModel.year * model.score(of: m, at: expiry)) < 1e-3)
            #expect(!model.isExpired(m, at: expiry - 60))
            #expect(model.isExpired(m, at: expiry + 60))
            #expect(abs(try #require(model.daysLeft(m, at: expiry - day)) - 1) < 1e-9)
        }
    }

    @Test func pinnedMemoriesNeverFade() {
        let m = Probe(pinned: true)
        #expect(model.score(of: m, at: 1e12) == 1)
        #expect(model.expiry(of: m) == nil)
        #expect(model.daysLeft(m, at: 0) == nil)
        #expect(!model.isExpired(m, at: 1e12))
    }

    @Test("expiry holds the rule for every type and use count, with default and configured curves")
    func expiryRuleHoldsEverywhere() throws {
        var rng = SplitMix(state: 42)
        var configured = DecayModel.standard
        configured.reinforcementFactor = 2.5
        configured.halfLifeDays[.note] = 7
        configured.halfLifeDays[.quote] = 400
        let fresh = DecayModel(halfLifeDays: configured.halfLifeDays, reinforcementFactor: 2.5, maxReinforcements: 8)
        #expect(configured == fresh)
        for model in [DecayModel.standard, configured] {
            for _ in 0..<500 {
                let m = Probe(type: MemoryType.allCases.randomElement(using: &rng)!, useCount: Int.random(in: -1...12, using: &rng),
                              lastReinforcedInstant: 1.7e9 + Double.random(in: 0...3e7, using: &rng))
                let expiry = try #require(model.expiry(of: m))
                let age = expiry - m.lastReinforcedInstant
                #expect(abs(age - DecayModel.year * model.score(of: m, at: expiry)) < 1e-3)
                #expect(abs(try #require(model.lifetime(of: m)) - age) < 1e-6)
                let now = m.lastReinforcedInstant + Double.random(in: 0...4e7, using: &rng)
                #expect(model.isExpired(m, at: now) == (now >= expiry))
            }
        }
    }

    @Test func fadingStateCountsTheWeekAhead() throws {
        let m = Probe(type: .task)
        let expiry = try #require(model.expiry(of: m))
        #expect(model.fadingState(of: m, at: expiry + 1) == .faded)
        #expect(model.fadingState(of: m, at: expiry - 1) == .fadingSoon)
        #expect(model.fadingState(of: m, at: expiry - MemoryStats.fadingHorizon + 1) == .fadingSoon)
        #expect(model.fadingState(of: m, at: expiry - MemoryStats.fadingHorizon - 1) == .inSearch)
        #expect(model.fadingState(of: Probe(pinned: true), at: 1e12) == .inSearch)
    }
}
