import EngramTestSupport
import Foundation
import Testing

/// The daemon's sync service: a peer's changes arriving in the sync folder become searchable without
/// `engram sync now`, and this device's captures reach the folder by themselves.
@Suite struct SyncServiceTests {
    @Test func aPeersMemoryBecomesSearchableAndOwnCapturesAreWrittenOut() async throws {
        let shared = NSTemporaryDirectory() + "engram-sync-daemon-" + UUID().uuidString
        let peerData = shared + "-peer/data", peerConfig = shared + "-peer/config"
        defer {
            for p in [shared, shared + "-peer"] { try? FileManager.default.removeItem(atPath: p) }
        }
        try FileManager.default.createDirectory(atPath: peerConfig, withIntermediateDirectories: true)
        let config = "[sync]\nfolder = \"\(shared)\"\n"
        try config.write(toFile: peerConfig + "/config.toml", atomically: true, encoding: .utf8)
        // The peer is another machine: its own data, no bus (so it never talks to this daemon).
        let peer = ["ENGRAM_DATA_DIR": peerData, "ENGRAM_CONFIG_DIR": peerConfig, "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"]

        try await withDaemon(samples: false, config: config, environment: ["ENGRAM_TEST_SYNC_POLL_MS": "300"]) { d in
            #expect(try d.engram(["sync", "now"]).status == 0)
            _ = try d.initialResultSet(["anything"])  // starts the daemon

            let made = try d.engram(["remember", "A quokka seen from the laptop"], environment: peer)
            #expect(made.status == 0, "\(made.stderr)")
            let id = String(made.stdout.split(separator: " ")[1])
            #expect(try d.engram(["sync", "now"], environment: peer).status == 0)
            #expect(try await eventually(timeout: .seconds(20)) { try d.initialResultSet(["quokka"]).contains { $0.contains(id) } },
                    "the peer's memory never became searchable here")

            let own = try d.engram(["remember", "A wombat on the desk"])
            #expect(own.status == 0, "\(own.stderr)")
            let ownID = String(own.stdout.split(separator: " ")[1])
            #expect(try await eventually(timeout: .seconds(20)) {
                _ = try d.engram(["sync", "now"], environment: peer)
                return try d.engram(["search", "--json", "wombat"], environment: peer).stdout.contains("\"id\":\"\(ownID)\"")
            }, "this device's capture never reached the folder")
        }
    }
}
