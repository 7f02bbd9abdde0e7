import EngramCore
import EngramTestSupport
import Foundation
import Testing

/// `engram capture` itself, run as a person would, where there is nothing to show a notification on.
@Suite(.serialized) struct CaptureCommandTests {
    static var canRun: Bool { FileManager.default.isExecutableFile(atPath: DunstEndToEndTests.engram) }

    func capture(_ lines: String, bus: PrivateBus?, dir: TempDir, extra: [String] = []) async throws -> PrivateBus.Output {
        let input = dir.path + "/input.txt"
        try lines.write(toFile: input, atomically: true, encoding: .utf8)
        let busVariable = bus.map { "DBUS_SESSION_BUS_ADDRESS='\($0.address)'" } ?? "DBUS_SESSION_BUS_ADDRESS='unix:path=\(dir.path)/no-bus'"
        let script = "export ENGRAM_DATA_DIR='\(dir.path)/data' ENGRAM_CONFIG_DIR='\(dir.path)/config' \(busVariable); "
            + "exec '\(DunstEndToEndTests.engram)' capture \(extra.joined(separator: " ")) < '\(input)'"
        let runner = try bus ?? PrivateBus()
        defer { if bus == nil { runner.stop() } }
        return try await runner.run("/bin/sh", ["-c", script])
    }

    @Test("Without a notification server, capture prints one note and captures every line", .enabled(if: canRun))
    func noServer() async throws {
        let dir = TempDir()
        let bus = try PrivateBus()
        defer { bus.stop() }
        let out = try await capture("one\n\ntwo\nthree\n", bus: bus, dir: dir)
        #expect(out.status == 0)
        #expect(out.stdout.hasPrefix("Captured 3 memories"), "blank lines are skipped: \(out.stdout)")
        let notes = out.stderr.split(separator: "\n")
        #expect(notes.count == 1, "one line, not one per memory: \(out.stderr)")
        #expect(notes.first?.hasPrefix("engram: no notification server is running") == true)
        let store = try Store(path: dir.path + "/data/engram.sqlite")
        let memories = try store.recentMemories(limit: 10)
        #expect(Set(memories.map(\.content)) == ["one", "two", "three"])
        #expect(memories.allSatisfy { $0.source == "capture" })
        #expect(try store.sessions().first?.state == .completed)
    }

    @Test("Without a session bus at all, capture still works", .enabled(if: canRun))
    func noBus() async throws {
        let dir = TempDir()
        let out = try await capture("alpha\n", bus: nil, dir: dir)
        #expect(out.status == 0)
        #expect(out.stdout.hasPrefix("Captured 1 memory"))
        #expect(out.stderr.split(separator: "\n").count == 1 && out.stderr.contains("no session bus"), "\(out.stderr)")
    }
}
