import EngramRules
import Testing

/// A memory on the curve, without a store.
struct Probe: Fading {
    var type: MemoryType = .note
    var useCount = 0
    var pinned = false
    var lastReinforcedInstant = 1.7e9
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
        var configured = DecayModel.standard
        configured.reinforcementFactor = 2.5
        configured.halfLifeDays[.note] = 7
        configured.halfLifeDays[.quote] = 400
        let fresh = DecayModel(halfLifeDays: configured.halfLifeDays, reinforcementFactor: 2.5, maxReinforcements: 8)
        #expect(configured == fresh)
        for model in [DecayModel.standard, configured] {
            for type in MemoryType.allCases {
                for uses in -1...12 {
                    let m = Probe(type: type, useCount: uses, lastReinforcedInstant: 1.7e9 + Double(uses) * 12_345.678)
                    let expiry = try #require(model.expiry(of: m))
                    let age = expiry - m.lastReinforcedInstant
                    #expect(abs(age - DecayModel.year * model.score(of: m, at: expiry)) < 1e-3)
                    #expect(abs(try #require(model.lifetime(of: m)) - age) < 1e-6)
                    for offset in [-86_400.0, -1, 0, 1, 86_400] {
                        #expect(model.isExpired(m, at: expiry + offset) == (offset >= 0))
                    }
                }
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
