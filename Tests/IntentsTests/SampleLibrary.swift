import EngramCore
import Foundation
import EngramApp
import Indexer
import Intents
import Testing

/// "Today" for the sample collection: 2026-11-22 12:00 UTC.
let sampleNow = Date(timeIntervalSince1970: 1_795_348_800)

/// UTC, so goldens do not depend on the machine's time zone.
let utc: Calendar = {
    var c = Calendar(identifier: .gregorian)
    c.timeZone = TimeZone(identifier: "UTC")!
    return c
}()

/// The repository root.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// A clock tests can move.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var now: Date
    init(_ now: Date) { self.now = now }
    func get() -> Date { lock.lock(); defer { lock.unlock() }; return now }
    func advance(_ seconds: TimeInterval) { lock.lock(); now += seconds; lock.unlock() }
}

/// A private library in a temporary folder, removed on deinit.
final class TestLibrary {
    let base: String
    let library: Library
    let clock: TestClock
    var paths: EngramPaths { library.paths }

    /// An empty library, or the sample collection with `samples`; `config` becomes config.toml.
    init(samples: Bool = true, config: String? = nil, now: Date = sampleNow) throws {
        base = NSTemporaryDirectory() + "engram-intents-" + UUID().uuidString
        let paths = EngramPaths(dataDirectory: base + "/data", configDirectory: base + "/config", runtimeDirectory: base + "/run")
        try FileManager.default.createDirectory(atPath: paths.configDirectory, withIntermediateDirectories: true)
        if let config { try config.write(toFile: paths.configPath, atomically: true, encoding: .utf8) }
        let clock = TestClock(now)
        self.clock = clock
        library = try Library(paths: paths, clock: { clock.get() })
        if samples {
            let text = try String(contentsOfFile: repositoryRoot + "/Samples/memories.jsonl", encoding: .utf8)
            _ = try Transfer(store: library.store).importJSONLines(text, origin: "samples")
            for f in ["swift-concurrency.toml", "spanish-b1.yaml"] {
                let (c, t) = try CurriculumFile.load(path: repositoryRoot + "/Samples/curricula/" + f, now: now)
                try library.store.upsertCurriculum(c, topics: t)
            }
            try library.rebuild()
        }
    }

    /// A runner in UTC.
    func runner(source: String = "test") -> IntentRunner {
        var r = IntentRunner(library: library, source: source)
        r.calendar = utc
        return r
    }

    /// Matches and runs a phrase.
    func ask(_ phrase: String) throws -> IntentResult { try runner().perform(phrase: phrase) }

    deinit { try? FileManager.default.removeItem(atPath: base) }
}

/// Compares `actual` with `Golden/name`; `ENGRAM_UPDATE_GOLDEN=1` rewrites the file instead.
func expectGolden(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let path = repositoryRoot + "/Tests/IntentsTests/Golden/" + name
    if ProcessInfo.processInfo.environment["ENGRAM_UPDATE_GOLDEN"] == "1" || !FileManager.default.fileExists(atPath: path) {
        try actual.write(toFile: path, atomically: true, encoding: .utf8)
        if ProcessInfo.processInfo.environment["ENGRAM_UPDATE_GOLDEN"] != "1" {
            Issue.record("wrote missing golden \(name); check it and commit it", sourceLocation: sourceLocation)
        }
        return
    }
    let expected = try String(contentsOfFile: path, encoding: .utf8)
    #expect(actual == expected, "differs from Golden/\(name); ENGRAM_UPDATE_GOLDEN=1 rewrites it", sourceLocation: sourceLocation)
}
