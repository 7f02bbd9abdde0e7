import EngramCore
import Foundation
import GRDB
import Testing

/// Embedding survives being killed like the index does: `engram index embed` SIGKILLed after a saved batch, then
/// run again, embeds only what was not saved, and ends with the vectors of a run that was never killed.
@Suite struct MeaningCrashTests {
    static let model = EngramProcess.root + "/.build/model"

    func folder() throws -> EngramProcess {
        let e = EngramProcess()
        try "[search]\nmodel_dir = \"\(Self.model)\"\n".write(toFile: e.configDir + "/config.toml", atomically: true, encoding: .utf8)
        // 40 memories: one saved batch of 32 and 8 more.
        let lines = (0..<40).map { i in
            #"{"kind":"memory","id":"c\#(i)","content":"Crash test note \#(i) about \#(["rivers", "baking", "compilers", "tides", "violins"][i % 5])","type":"note","tags":[],"created":"2026-01-01T00:00:00Z","updated":"2026-01-01T00:00:00Z","lastReinforced":"2026-11-20T00:00:00Z","useCount":0,"pinned":true,"source":"test"}"#
        }
        let file = e.dataDir + ".jsonl"
        try lines.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try e.run(["import", file]).status == 0)
        return e
    }

    func vectors(_ e: EngramProcess) throws -> [String: Data] {
        let db = try DatabaseQueue(path: e.storePath)
        return try db.read { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT itemID, data FROM vector").map { ($0[0] as String, $0[1] as Data) })
        }
    }

    @Test func aKilledEmbeddingResumesWithoutRepeatingAndEndsTheSame() throws {
        #expect(FileManager.default.fileExists(atPath: Self.model + "/libe5.so"),
                "the meaning model is not installed in .build/model: run `make model` (make test does)")
        let killed = try folder()
        let first = try killed.run(["index", "embed"], env: ["ENGRAM_TEST_CRASH_AT": "embed-after-save:1"])
        #expect(first.signaled, "the crash point did not kill it: \(first.stderr)")
        #expect(try vectors(killed).count == 32)
        let second = try killed.run(["index", "embed"])
        #expect(second.status == 0 && second.stdout.contains("Embedded 8 items"), "\(second.stdout) \(second.stderr)")

        let clean = try folder()
        #expect(try clean.run(["index", "embed"]).stdout.contains("Embedded 40 items"))
        let a = try vectors(killed), b = try vectors(clean)
        #expect(a.count == 40 && a == b, "the resumed run's vectors differ from an uninterrupted run's")
        let status = try killed.run(["index", "status"]).stdout
        #expect(status.contains("40 items embedded, up to date"), "\(status)")
    }
}
