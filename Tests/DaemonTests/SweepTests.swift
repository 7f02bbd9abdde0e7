import EngramTestSupport
import Foundation
import Testing

/// The daemon sweeps faded items from the index by itself: once a minute after it starts (here, with
/// `ENGRAM_TEST_FIRST_SWEEP_MS`, half a second), then every `[daemon] sweep_interval`. Xapian's `xapian-delve` reads
/// the index to see a memory's id term go.
@Suite struct SweepTests {
    typealias D = DaemonFixture

    /// Imports a memory last used long ago: faded, yet indexed (the importer indexes what it stores).
    static func importFaded(_ d: D, id: String) throws {
        let file = d.base + "/\(id).jsonl"
        try #"{"kind":"memory","id":"\#(id)","content":"Compost needs brown and green layers (\#(id))","created":"2024-01-01T00:00:00Z","lastReinforced":"2024-01-01T00:00:00Z"}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        let out = try d.engram(["import", file])
        guard out.status == 0 else { throw TestError("import failed: \(out.stderr)") }
    }

    /// Whether the index holds the id term of memory `id`, as xapian-delve sees it.
    static func indexed(_ d: D, _ id: String) throws -> Bool {
        let out = try Run.program("/usr/bin/xapian-delve", ["-t", "Qmemory:\(id)", d.dataDir + "/index"], environment: d.environment)
        guard out.status == 0 else { throw TestError("xapian-delve failed: \(out.stderr)") }
        return !out.stdout.contains("not in database")
    }

    @Test func aFadedMemoryLeavesTheIndexSoonAfterTheDaemonStartsAndStaysInTheStore() async throws {
        try await withDaemon(environment: ["ENGRAM_TEST_FIRST_SWEEP_MS": "500"]) { d in
            try Self.importFaded(d, id: "old1")
            #expect(try Self.indexed(d, "old1"), "the faded memory should be in the index before the daemon runs")
            #expect(try Self.indexed(d, "s165"))

            // Any first call starts the daemon; with the default hourly interval, the first sweep comes long before the hour.
            #expect(try d.initialResultSet(["focaccia"]).contains("engram://memory/s165"))
            #expect(try await eventually(timeout: .seconds(30)) { try !Self.indexed(d, "old1") }, "not swept: \(d.bus.log)")
            #expect(d.bus.log.contains("swept faded items from the index"))
            #expect(try Self.indexed(d, "s165"), "a live memory was swept")
            #expect(try d.memory("old1")["content"] as? String == "Compost needs brown and green layers (old1)")
        }
    }

    @Test func theConfiguredIntervalSweepsAgain() async throws {
        try await withDaemon(config: "[daemon]\nsweep_interval = 1\n") { d in
            try Self.importFaded(d, id: "old1")
            _ = try d.initialResultSet(["focaccia"])
            #expect(try await eventually(timeout: .seconds(20)) { try !Self.indexed(d, "old1") })

            // Faded on arrival while the daemon runs: the daemon indexes it, and a later sweep takes it out.
            try Self.importFaded(d, id: "old2")
            #expect(try await eventually(timeout: .seconds(20)) { try !Self.indexed(d, "old2") })
            #expect(d.bus.log.components(separatedBy: "swept faded items from the index").count - 1 >= 2, "\(d.bus.log)")
            #expect(try d.memory("old2")["id"] as? String == "old2")
        }
    }

    /// The config is read once per process through the same section types, so every command says the same sentence.
    @Test func aBadIntervalIsRefusedWithASentence() async throws {
        try await withDaemon(samples: false, config: "[daemon]\nsweep_interval = 0\n") { d in
            for command in [["daemon"], ["search", "sourdough"]] {
                let out = try d.engram(command, timeout: 30)
                #expect(out.status == 78, "\(command): \(out.stderr)")
                #expect(out.stderr.contains("daemon.sweep_interval must be a number of seconds from 1 to 604800"), "\(command): \(out.stderr)")
            }
        }
    }
}
