import Foundation
import Testing
@testable import EngramCore

@Suite struct DecayModelTests {
    let model = DecayModel.standard
    let t0 = ISODate.parse("2026-01-01T00:00:00Z")!

    func memory(_ type: MemoryType = .note, uses: Int = 0, pinned: Bool = false) -> Memory {
        Memory(id: "m", content: "x", type: type, created: t0, useCount: uses, pinned: pinned)
    }

    @Test func scoreStartsAtOneAndHalvesEachHalfLife() {
        let m = memory()
        #expect(model.score(of: m, at: t0) == 1)
        #expect(abs(model.score(of: m, at: t0 + 30 * 86_400) - 0.5) < 1e-9)
        #expect(abs(model.score(of: m, at: t0 + 60 * 86_400) - 0.25) < 1e-9)
        #expect(model.score(of: m, at: t0 + 3650 * 86_400) > 0)
    }

    @Test func expiryFollowsTheSpotlightRuleAtTheMomentItHolds() throws {
        for type in MemoryType.allCases {
            let m = memory(type)
            let exp = try #require(model.expiry(of: m))
            let age = exp.timeIntervalSince(t0)
            // expiry = last reinforcement + score × 365 days, with the score taken at expiry.
            #expect(abs(age - model.score(of: m, at: exp) * 365 * 86_400) < 1)
            #expect(!model.isExpired(m, at: exp - 60))
            #expect(model.isExpired(m, at: exp + 60))
        }
    }

    @Test func tasksFadeBeforeQuotesAndUseStretchesLife() throws {
        let task = try #require(model.expiry(of: memory(.task)))
        let quote = try #require(model.expiry(of: memory(.quote)))
        #expect(task < quote)
        let used = try #require(model.expiry(of: memory(.note, uses: 3)))
        let unused = try #require(model.expiry(of: memory(.note)))
        #expect(used > unused)
        #expect(used.timeIntervalSince(t0) <= 365 * 86_400)
    }

    @Test func pinnedNeverFades() {
        let m = memory(pinned: true)
        #expect(model.expiry(of: m) == nil)
        #expect(model.score(of: m, at: t0 + 5000 * 86_400) == 1)
        #expect(!model.isExpired(m, at: t0 + 5000 * 86_400))
    }

    @Test func configChangesHalfLivesAndReportsMistakes() throws {
        let c = try EngramConfig.parse("""
            [decay]
            half_life_days = { note = 10, quote = 365 }
            reinforcement_factor = 2.5
            [search]
            decay_weight = 0.5
            [privacy]
            krunner = false
            """)
        #expect(c.decay.halfLifeDays[.note] == 10)
        #expect(c.decay.halfLifeDays[.idea] == 45)
        #expect(c.decay.reinforcementFactor == 2.5)
        #expect(c.searchDecayWeight == 0.5)
        #expect(c.disabledIntegrations == ["krunner"])
        do {
            _ = try EngramConfig.parse("[decay]\nhalf_life_days = { poem = 3 }\n")
            Issue.record("unknown type accepted")
        } catch let e as EngramError {
            #expect(e.description.contains("poem"))
        }
        do {
            _ = try EngramConfig.parse("[search\nlimit = 3\n", origin: "config.toml")
            Issue.record("malformed TOML accepted")
        } catch let e as EngramError {
            #expect(e.description.hasPrefix("config.toml:1:"))
        }
        // Numbers TOML allows but no setting can use are refused with the key's name, not taken as infinite weights.
        for bad in ["[search]\ndecay_weight = inf\n", "[search]\ndecay_weight = nan\n", "[decay]\nreinforcement_factor = inf\n",
                    "[decay]\nhalf_life_days = { note = inf }\n", "[sync]\nhandoff_minutes = nan\n"] {
            #expect(throws: EngramError.self, "\(bad)") { try EngramConfig.parse(bad) }
        }
    }
}
