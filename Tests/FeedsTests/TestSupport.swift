import EngramCore
import Feeds
import EngramTestSupport
import Foundation
import GRDB

/// `2026-11-22T10:00:00Z`-style text to a date.
func date(_ iso: String) -> Date { ISODate.parse(iso)! }

/// A store on disk written through EngramCore (the real write path) and read through the feeds' SQLite reader.
final class FeedFixture: @unchecked Sendable {
    /// The fixed "now" of every fixture: Sunday 22 November 2026, 10:00 UTC (11:00 in the fixture's UTC+1).
    static let now = date("2026-11-22T10:00:00Z")
    /// The fixture's local time zone: a fixed UTC+1, like Paris in winter.
    static let offset = 3600

    let dir = TempDir()
    let clock = TestClock(FeedFixture.now)
    let store: Store
    var config = FeedConfig()

    var storePath: String { dir.path + "/data/engram.sqlite" }

    init() throws {
        store = try Store(path: dir.path + "/data/engram.sqlite", clock: { [clock] in clock.now })
    }

    /// The environment feeds run in: the fixed clock and UTC+1.
    func environment(at instant: Date? = nil) -> FeedEnvironment {
        FeedEnvironment(now: (instant ?? clock.now).timeIntervalSince1970, calendar: .fixedOffset(Self.offset), config: config)
    }

    /// A fresh read-only source on the store file.
    func source() throws -> SQLiteFeedSource { try SQLiteFeedSource(path: storePath) }

    /// Builds a feed from the store at the clock's time (or `instant`).
    func build(_ request: FeedRequest, at instant: Date? = nil) throws -> FeedResult {
        Feeds.build(request, from: try source(), in: environment(at: instant))
    }

    /// Stores memories with explicit dates (the import path).
    func add(_ memories: [Memory]) throws { try store.upsertMemories(memories) }

    /// Runs raw SQL on the store (for content the API refuses, such as invalid UTF-8).
    func execute(_ sql: String) throws {
        try store.database.write { db in try db.execute(sql: sql) }
    }

    /// Uses `id` at `instant` as a person would (open, review …).
    func use(_ id: String, _ action: Activity.Action, at instant: Date) throws {
        let saved = clock.now
        clock.set(instant)
        defer { clock.set(saved) }
        try store.reinforce(id: id, action: action, source: "test")
    }

    /// Runs `body` with the clock at `instant`, then puts it back.
    func at<T>(_ instant: Date, _ body: () throws -> T) rethrows -> T {
        let saved = clock.now
        clock.set(instant)
        defer { clock.set(saved) }
        return try body()
    }
}

/// A memory with a fixed id and dates.
func memory(_ id: String, _ type: MemoryType, _ content: String, tags: [String] = [], context: String? = nil,
            created: String, reinforced: String? = nil, uses: Int = 0, pinned: Bool = false) -> Memory {
    Memory(id: id, content: content, type: type, tags: tags, context: context, created: date(created),
           lastReinforced: reinforced.map(date), useCount: uses, pinned: pinned, source: "test")
}

extension FeedFixture {
    /// The golden corpus: twelve memories of every type, contexts, links, a curriculum with a running learning
    /// session, a review and an open — chosen so that some memories are due for review and some have faded.
    static func standard() throws -> FeedFixture {
        let f = try FeedFixture()
        try f.add([
            memory("m01", .quote, "“The impediment to action advances action. What stands in the way becomes the way.” — Marcus Aurelius, Meditations 5.20",
                   tags: ["stoicism", "philosophy"], context: "reading", created: "2025-02-10T22:15:00Z", reinforced: "2026-06-07T07:15:00Z", uses: 9, pinned: true),
            memory("m02", .note, "Autolyse\nRest flour and water 30–60 min before adding the levain: extensibility without kneading.",
                   tags: ["sourdough", "baking"], context: "personal", created: "2026-08-01T09:00:00Z", reinforced: "2026-09-20T12:00:00Z", uses: 2),
            memory("m03", .idea, "Index my reading notes too, so quotes and highlights show up in search.",
                   tags: ["engram"], context: "work", created: "2026-08-26T00:00:00Z"),
            memory("m04", .task, "Renew the passport before the March trip",
                   tags: ["admin"], context: "personal", created: "2026-10-12T08:00:00Z"),
            memory("m05", .learning, "Swift actors serialise access to their mutable state; every `await` is a possible suspension point where other work may run.",
                   tags: ["swift", "concurrency"], context: "work", created: "2026-07-15T10:00:00Z", reinforced: "2026-09-01T10:00:00Z", uses: 3),
            memory("m06", .note, "Xapian QueryParser FLAG_PARTIAL matches the last word as a prefix.",
                   tags: ["xapian", "search"], context: "work", created: "2026-06-01T10:00:00Z"),
            memory("m07", .quote, "Some things are in our control and others not. — Epictetus, Enchiridion 1",
                   tags: ["stoicism"], context: "reading", created: "2026-03-01T21:00:00Z", reinforced: "2026-05-15T08:00:00Z", uses: 1),
            memory("m08", .note, "Long run fuelling: 30–60 g of carbohydrate per hour after the first hour.",
                   tags: ["running"], context: "personal", created: "2026-11-20T18:00:00Z"),
            memory("m09", .idea, "A weekly review ritual on Sunday evening",
                   tags: ["productivity"], context: "personal", created: "2026-11-21T20:30:00Z"),
            memory("m10", .note, "Por vs para: por = cause or exchange, para = purpose or destination.",
                   tags: ["spanish"], context: "personal", created: "2026-11-22T08:15:00Z"),
            memory("m11", .learning, "systemd user timers need `loginctl enable-linger` to run without a login session.",
                   tags: ["systemd", "linux"], context: "work", created: "2026-09-10T19:00:00Z"),
            memory("m12", .note, "Check the tyre pressure every month", tags: ["car"], context: "personal", created: "2026-09-05T07:00:00Z"),
        ])
        try f.store.link("m01", "m07", origin: .manual)
        try f.store.link("m05", "m06", origin: .auto, weight: 0.6)
        try f.store.link("m05", "m11", origin: .manual)
        try f.use("m05", .open, at: date("2026-11-21T16:00:00Z"))
        try f.use("m02", .review, at: date("2026-11-22T08:30:00Z"))
        try f.store.upsertCurriculum(
            Curriculum(id: "swift-concurrency", title: "Swift concurrency", created: date("2026-11-01T09:00:00Z")),
            topics: ["Tasks", "Actors", "Sendable", "Structured concurrency"].enumerated().map { n, title in
                Topic(id: "sc-\(n + 1)", curriculumID: "swift-concurrency", position: n, title: title, done: n == 0,
                      created: date("2026-11-01T09:00:00Z"))
            })
        try f.at(date("2026-11-22T09:35:00Z")) { _ = try f.store.startLearningSession(curriculumID: "swift-concurrency") }
        try f.execute("UPDATE session SET id = 'session-1'")
        return f
    }
}

/// Golden files in Tests/FeedsTests/Golden; `ENGRAM_UPDATE_GOLDEN=1 swift test --filter FeedsTests` rewrites them.
enum Golden {
    static let sourceFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    /// Whether `actual` equals the golden file `name`; describes the first difference otherwise.
    static func compare(_ actual: String, _ name: String) throws -> String? {
        if ProcessInfo.processInfo.environment["ENGRAM_UPDATE_GOLDEN"] == "1" {
            try actual.write(to: sourceFolder.appendingPathComponent(name), atomically: true, encoding: .utf8)
            return nil
        }
        guard let url = Bundle.module.url(forResource: "Golden", withExtension: nil)?.appendingPathComponent(name),
              let expected = try? String(contentsOf: url, encoding: .utf8) else {
            return "no golden file \(name); run ENGRAM_UPDATE_GOLDEN=1 swift test --filter FeedsTests and review it"
        }
        if expected == actual { return nil }
        let a = actual.components(separatedBy: "\n"), e = expected.components(separatedBy: "\n")
        for i in 0..<max(a.count, e.count) {
            let al = i < a.count ? a[i] : "<end>", el = i < e.count ? e[i] : "<end>"
            if al != el { return "\(name) line \(i + 1):\n  expected: \(el)\n  actual:   \(al)" }
        }
        return "\(name) differs"
    }

    /// Output with rofi's separators shown, so golden files stay text.
    static func visible(_ s: String) -> String {
        s.replacingOccurrences(of: "\0", with: "\\0").replacingOccurrences(of: "\u{1F}", with: "\\x1f")
    }
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
