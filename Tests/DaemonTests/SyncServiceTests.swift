import DBus
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

    /// What a peer's change does beyond the index: the daemon announces it (PropertiesChanged, which the feeds and
    /// widgets follow) and embeds it, so a question sharing no word with it finds it here — with the real model
    /// (`make model`, part of `make test`) on this side and none on the peer's.
    @Test func aPeersMemoryIsAnnouncedAndFoundByMeaning() async throws {
        let model = DaemonFixture.root + "/.build/model"
        #expect(FileManager.default.fileExists(atPath: model + "/libe5.so"),
                "the meaning model is not installed in .build/model: run `make model` (make test does)")
        let shared = NSTemporaryDirectory() + "engram-sync-meaning-" + UUID().uuidString
        let peerData = shared + "-peer/data", peerConfig = shared + "-peer/config"
        defer {
            for p in [shared, shared + "-peer"] { try? FileManager.default.removeItem(atPath: p) }
        }
        try FileManager.default.createDirectory(atPath: peerConfig, withIntermediateDirectories: true)
        try "[sync]\nfolder = \"\(shared)\"\n".write(toFile: peerConfig + "/config.toml", atomically: true, encoding: .utf8)
        let peer = ["ENGRAM_DATA_DIR": peerData, "ENGRAM_CONFIG_DIR": peerConfig, "ENGRAM_MODEL_DIR": "none",
                    "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"]
        let config = "[sync]\nfolder = \"\(shared)\"\n[search]\nmodel_dir = \"\(model)\"\n"

        try await withDaemon(samples: false, config: config, environment: ["ENGRAM_TEST_SYNC_POLL_MS": "300"]) { d in
            #expect(try d.engram(["sync", "now"]).status == 0)
            #expect(try d.engram(["remember", "Call grandma on Sunday afternoon."]).status == 0)
            _ = try d.initialResultSet(["grandma"])  // starts the daemon
            let app = "org.engram.Engram1"
            let count = { () throws -> UInt32? in
                try d.call("/org/engram/Engram", "org.freedesktop.DBus.Properties", "Get", [.string(app), .string("MemoryCount")])
                    .first?.variantValue?.uint32Value
            }
            let before = try #require(try count())
            let seen = Collector<DBusSignalEvent>()
            let subscription = try d.client.addMatch(DBusMatchRule(sender: DaemonFixture.busName, path: "/org/engram/Engram",
                                                                   interface: "org.freedesktop.DBus.Properties",
                                                                   member: "PropertiesChanged")) { seen.append($0) }
            defer { subscription.cancel() }

            let made = try d.engram(["remember", "Kubernetes pods restart when the liveness probe fails too often."], environment: peer)
            #expect(made.status == 0, "\(made.stderr)")
            let id = String(made.stdout.split(separator: " ")[1])
            #expect(try d.engram(["sync", "now"], environment: peer).status == 0)

            // Announced: a PropertiesChanged carrying the new count, without anything asked of the daemon.
            #expect(await eventually(timeout: .seconds(20)) {
                seen.all.contains { $0.arguments.first?.stringValue == app && $0.arguments[1].dictionaryValue?["MemoryCount"]?.uint32Value == before + 1 }
            }, "no PropertiesChanged announced the peer's memory")
            // Embedded here: found by meaning alone.
            let question = "why does my container keep rebooting"
            #expect(try await eventually(timeout: .seconds(30)) {
                let out = try d.engram(["search", "--json", "--", question])
                let hits = (try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])?["results"] as? [[String: Any]] ?? []
                return hits.first?["id"] as? String == id && hits.first?["byMeaning"] as? Bool == true
            }, "the peer's memory was never found by meaning here")
        }
    }
}
