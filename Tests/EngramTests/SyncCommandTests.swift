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
