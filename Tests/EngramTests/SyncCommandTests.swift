import Foundation
import Testing

/// `engram sync` run as a person would, on two data folders sharing one sync folder (as two machines would
/// through Syncthing).
@Suite(.serialized) struct SyncCommandTests {
    /// Two devices whose config names the same sync folder.
    static func pair() throws -> (EngramProcess, EngramProcess, String) {
        let a = EngramProcess(), b = EngramProcess()
        let folder = (a.dataDir as NSString).deletingLastPathComponent + "/shared"
        for e in [a, b] {
            try "[sync]\nfolder = \"\(folder)\"\n".write(toFile: e.configDir + "/config.toml", atomically: true, encoding: .utf8)
        }
        return (a, b, folder)
    }

    @Test func aMemoryCapturedOnOneDeviceIsSearchableOnTheOther() throws {
        let (a, b, _) = try Self.pair()
        let off = try a.run(["sync", "status"])
        #expect(off.status == 0 && off.stdout.contains("Sync is off"))
        let r = try a.run(["remember", "--tag", "home", "Descale the kettle with citric acid"])
        #expect(r.status == 0, "\(r.stderr)")
        let id = String(r.stdout.split(separator: " ")[1])
        let sentA = try a.run(["sync", "now"])
        #expect(sentA.status == 0, "\(sentA.stderr)")
        #expect(sentA.stdout.contains("wrote 2 changes"))
        let gotB = try b.run(["sync", "now"])
        #expect(gotB.status == 0, "\(gotB.stderr)")
        #expect(gotB.stdout.contains("applied 2 changes from 1 other device"))
        #expect(try b.searchIDs("kettle") == [id])
        #expect(try b.searchIDs("tag:home") == [id])

        // Forgotten on B, gone from A's search after A syncs.
        #expect(try b.run(["forget", "--yes", id]).status == 0)
        #expect(try b.run(["sync", "now"]).status == 0)
        #expect(try a.run(["sync", "now"]).status == 0)
        #expect(try a.searchIDs("kettle").isEmpty)

        let status = try b.run(["sync", "status"])
        #expect(status.status == 0)
        #expect(status.stdout.contains("This device: "))
        #expect(status.stdout.contains("changes received"))
    }

    @Test func withoutAFolderSyncSaysHowToSetOne() throws {
        let e = EngramProcess()
        let r = try e.run(["sync", "now"])
        #expect(r.status == 78)
        #expect(r.stderr.contains("[sync]") && r.stderr.contains("folder = "))
    }
}

extension SyncCommandTests {
    @Test func showHistoryListsTheValueAnEditReplaced() throws {
        let (a, b, _) = try Self.pair()
        let id = String(try a.run(["remember", "First wording"]).stdout.split(separator: " ")[1])
        #expect(try a.run(["sync", "now"]).status == 0)
        #expect(try b.run(["sync", "now"]).status == 0)
        // An edit on B: re-importing the memory with new text (Engram's export format).
        let line = #"{"kind":"memory","id":"\#(id)","content":"Second wording","type":"note","created":"2026-01-01T00:00:00Z"}"# + "\n"
        let file = b.configDir + "/edit.jsonl"
        try line.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try b.run(["import", file]).status == 0)
        #expect(try b.run(["sync", "now"]).status == 0)
        #expect(try a.run(["sync", "now"]).status == 0)
        let shown = try a.run(["show", "--peek", "--history", id])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.hasPrefix("Second wording"))
        #expect(shown.stdout.contains("Earlier values, oldest first:"))
        #expect(shown.stdout.contains("content on ") && shown.stdout.contains("First wording"))
    }
}

extension SyncCommandTests {
    @Test func killedAtEverySyncPointTheDevicesStillEndTheSame() throws {
        let (a, b, folder) = try Self.pair()
        var ids: [String] = []
        for i in 0..<12 {
            ids.append(String(try a.run(["remember", "--tag", "t\(i % 3)", "Note number \(i) about apricots"]).stdout.split(separator: " ")[1]))
        }
        // Killed after appending, before the store knew: written again next time (a duplicate, applied once).
        let killed = try a.run(["sync", "now"], env: ["ENGRAM_TEST_CRASH_AT": "sync-export-appended"])
        #expect(killed.signaled)
        #expect(try a.run(["sync", "now"]).status == 0)
        // Killed after B applied what it read.
        #expect(try b.run(["sync", "now"], env: ["ENGRAM_TEST_CRASH_AT": "sync-import-chunk"]).signaled)
        #expect(try b.run(["sync", "now"]).status == 0)
        // A forget, and A killed between writing its compacted log and removing the old segments.
        #expect(try a.run(["forget", "--yes", ids[0]]).status == 0)
        #expect(try a.run(["sync", "now"], env: ["ENGRAM_TEST_CRASH_AT": "sync-compact-written"]).signaled)
        for e in [a, b, a, b] { #expect(try e.run(["sync", "now"]).status == 0) }

        let digestA = try a.run(["sync", "status", "--digest"]).stdout
        #expect(digestA.count == 17)
        #expect(digestA == (try b.run(["sync", "status", "--digest"]).stdout))
        #expect(try b.searchIDs("apricots").sorted() == ids.dropFirst().sorted())
        // A's log holds nothing of the forgotten memory but its tombstone.
        let logs = try FileManager.default.subpathsOfDirectory(atPath: folder).filter { $0.hasSuffix(".jsonl") }
        let text = try logs.map { try String(contentsOfFile: folder + "/" + $0, encoding: .utf8) }.joined()
        #expect(!text.contains("Note number 0 about"))
        #expect(text.contains(ids[0]))  // the forget operation itself
        // and each of its operations once, though a crash made it write some twice.
        let lines = text.split(separator: "\n")
        #expect(Set(lines).count == lines.count)
    }
}

extension SyncCommandTests {
    /// `sync setup` without Syncthing says what to install or start; `sync status` says it in one line.
    @Test func setupWithoutARunningSyncthingSaysHowToStartIt() throws {
        let (a, _, _) = try Self.pair()
        let home = a.configDir + "/home"
        let env = ["HOME": home, "STHOMEDIR": "", "XDG_STATE_HOME": "", "XDG_CONFIG_HOME": ""]
        let none = try a.run(["sync", "setup"], env: env)
        #expect(none.status == 66 && none.stderr.contains("apt install syncthing"), "\(none.stderr)")

        // A config whose GUI nobody listens on (port 9, discard, is closed here).
        try FileManager.default.createDirectory(atPath: home + "/.config/syncthing", withIntermediateDirectories: true)
        try "<configuration><gui enabled=\"true\" tls=\"false\"><address>127.0.0.1:9</address><apikey>k</apikey></gui></configuration>"
            .write(toFile: home + "/.config/syncthing/config.xml", atomically: true, encoding: .utf8)
        let down = try a.run(["sync", "setup"], env: env)
        #expect(down.status == 74 && down.stderr.contains("systemctl --user start syncthing"), "\(down.stderr)")
        #expect(try a.run(["sync", "now"], env: env).status == 0)
        let status = try a.run(["sync", "status"], env: env)
        #expect(status.status == 0 && status.stdout.contains("Syncthing: Syncthing is not running"), "\(status.stdout)")

        let bad = try a.run(["sync", "add-device", "not-an-id"], env: env)
        #expect(bad.status == 64 && bad.stderr.contains("not a Syncthing device id"), "\(bad.stderr)")
    }
}
