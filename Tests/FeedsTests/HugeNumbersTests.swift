import EngramCore
import Feeds
import Foundation
import Testing

/// Counts and seconds no person makes (a peer's, a corrupt row's) give a feed, never a trap.
@Suite struct HugeNumbersTests {
    @Test("progress of any size is a percentage from 0 to 100", arguments: [
        (Int.max, 3, 100), (Int.max / 50, Int.max, 2), (Int.max, Int.max, 100), (-5, 10, 0), (5, -10, 0), (1, 3, 33), (2, 3, 66),
    ])
    func percentage(done: Int, total: Int, expected: Int) {
        let s = FeedSession(id: "s", kind: .learning, title: "t", state: .paused, started: 0, progressDone: done, progressTotal: total)
        #expect(s.percentage == expected)
    }

    @Test func aSessionWithHugeSecondsAndCountsStillGivesTheSessionFeed() throws {
        let f = try FeedFixture.standard()
        let session = try #require(try f.store.activeSession())
        try f.execute("UPDATE session SET accumulatedSeconds = 1e300, resumed = NULL, progressDone = \(Int64.max), progressTotal = \(Int64.max - 1) WHERE id = '\(session.id)'")
        for size in [FeedSize.small, .medium, .large] {
            let result = try f.build(FeedRequest(.session, size: size))
            guard case .session(let d?) = result.payload else { Issue.record("idle"); continue }
            #expect(d.session.percentage == 100)
            let json = JSONRenderer().render(result)
            #expect(json.contains("\"elapsedSeconds\":\(Int.max)"), "\(json)")
        }
    }
}
