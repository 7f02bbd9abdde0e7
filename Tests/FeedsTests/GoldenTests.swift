import EngramCore
import Feeds
import EngramTestSupport
import Foundation
import Testing

/// Every renderer's output for every feed and size, and for the quiet and error states, against golden files.
@Suite struct GoldenTests {
    @Test("renderer output matches its golden file", arguments: FeedFormat.allCases)
    func renderer(_ format: FeedFormat) throws {
        let fixture = try FeedFixture.standard()
        var out = ""
        for name in FeedName.allCases {
            for size in FeedSize.allCases {
                let result = try fixture.build(FeedRequest(name, size: size))
                out += "=== \(name.rawValue) \(size.rawValue)\n" + Golden.visible(format.renderer.render(result)) + "\n"
            }
        }
        for (label, result) in try StateFixtures.all() {
            out += "=== \(label)\n" + Golden.visible(format.renderer.render(result)) + "\n"
        }
        if let difference = try Golden.compare(out, "\(format.rawValue).txt") { Issue.record(Comment(rawValue: difference)) }
    }
}

/// The states other than "ready", each on its own small store.
enum StateFixtures {
    static func all() throws -> [(String, FeedResult)] {
        var out: [(String, FeedResult)] = []
        let standard = try FeedFixture.standard()

        try standard.store.setSetting("context", "work")
        out.append(("motd medium, context work", try standard.build(FeedRequest(.motd))))
        out.append(("review large, context work", try standard.build(FeedRequest(.review, size: .large))))
        try standard.store.setSetting("context", "sleep")
        out.append(("motd medium, sleep context", try standard.build(FeedRequest(.motd))))
        try standard.store.setSetting("context", nil)

        _ = try standard.store.transition(.pause)
        out.append(("session medium, paused", try standard.build(FeedRequest(.session))))
        _ = try standard.store.transition(.stop)
        out.append(("session medium, idle", try standard.build(FeedRequest(.session))))

        standard.config.feedsEnabled = false
        out.append(("stats medium, feeds disabled", try standard.build(FeedRequest(.stats))))

        let empty = try FeedFixture()
        out.append(("motd medium, empty store", try empty.build(FeedRequest(.motd))))
        out.append(("stats small, empty store", try empty.build(FeedRequest(.stats, size: .small))))
        out.append(("review medium, nothing due", try empty.build(FeedRequest(.review))))

        standard.config.feedsEnabled = true
        let env = standard.environment()
        out.append(("motd medium, no store", Feeds.failure(FeedRequest(.motd), FeedSourceError(.missing, "no Engram store at /home/ada/.local/share/engram/engram.sqlite yet; capture something with `engram remember`"), at: env.now)))
        let dir = TempDir()
        let junk = dir.path + "/engram.sqlite"
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: junk))
        var result: FeedResult
        do {
            result = Feeds.build(FeedRequest(.motd), from: try SQLiteFeedSource(path: junk), in: env)
        } catch {
            result = Feeds.failure(FeedRequest(.motd), error, at: env.now)
        }
        result.message = result.message?.replacingOccurrences(of: dir.path, with: "<dir>")
        result.view.tooltip = result.view.tooltip.map { $0.replacingOccurrences(of: dir.path, with: "<dir>") }
        result.view.block = result.view.block.map { $0.replacingOccurrences(of: dir.path, with: "<dir>") }
        out.append(("motd medium, damaged store", result))
        return out
    }
}
