import Foundation
import Testing

/// `engram handoff` run as a person would on two data folders sharing one sync folder, with no daemon: `engram
/// sync now` carries the claim and its answer.
@Suite(.serialized) struct HandoffCommandTests {
    static let noBus = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"]

    @Test func listContinueAndTheSessionMoves() throws {
        let (a, b, _) = try SyncCommandTests.pair()
        #expect(try a.run(["import", EngramProcess.root + "/Samples/curricula/swift-concurrency.toml"]).status == 0)
        #expect(try a.run(["sync", "now"], env: Self.noBus).status == 0)
        #expect(try b.run(["sync", "now"], env: Self.noBus).status == 0)
        let none = try b.run(["handoff"], env: Self.noBus)
        #expect(none.status == 0 && none.stdout == "Nothing to continue: no other device published a recent activity.\n", "\(none.stdout)")

        #expect(try a.run(["session", "start", "--curriculum", "swift-concurrency"], env: Self.noBus).status == 0)
        let id = try #require(try a.run(["session", "status", "--json"]).stdout.firstMatch(of: /"id":"([^"]+)"/)?.1).description
        let listed = try b.run(["handoff", "list"], env: Self.noBus)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains(": Swift Concurrency — Sendable, 0 min · running · "), "\(listed.stdout)")
        #expect(listed.stdout.contains("engram handoff continue \(id)"), "\(listed.stdout)")
        #expect(try a.run(["handoff"], env: Self.noBus).stdout.hasPrefix("Nothing to continue"), "a device never lists its own activity")
        // The same offer as JSON, for scripts and bars.
        let json = try b.run(["handoff", "list", "--json"], env: Self.noBus)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json.stdout)")
        let offer = try #require((parsed["offers"] as? [[String: Any]])?.first, "\(json.stdout)")
        #expect(offer["kind"] as? String == "session" && offer["id"] as? String == id && offer["state"] as? String == "running")
        #expect(offer["title"] as? String == "Swift Concurrency — Sendable" && offer["minutes"] as? Int == 0, "\(offer)")
        #expect(offer["link"] as? String == "engram://handoff/continue?device=\(id)" && offer["deviceName"] as? String != nil)
        #expect(parsed["waitingFor"] == nil)

        let asked = try b.run(["handoff", "continue", "--wait", "0", id], env: Self.noBus)
        #expect(asked.status == 0, "\(asked.stderr)")
        #expect(asked.stdout.contains("to hand over Swift Concurrency — Sendable, 0 min;"), "\(asked.stdout)")
        #expect(try b.run(["handoff"], env: Self.noBus).stdout.hasPrefix("Waiting for device "))

        let answered = try a.run(["sync", "now"], env: Self.noBus)
        #expect(answered.stdout.contains("over to another device, paused here."), "\(answered.stdout)")
        let moved = try b.run(["sync", "now"], env: Self.noBus)
        #expect(moved.stdout.contains("Continuing here: Swift Concurrency: Sendable — running"), "\(moved.stdout)")
        #expect(try a.run(["session", "status"]).stdout.contains("— paused ·"))
        #expect(try b.run(["session", "status"]).stdout.contains("— running ·"))
    }

    @Test func linksAndErrorsSayWhatToDo() throws {
        let e = EngramProcess()
        let off = try e.run(["handoff"], env: Self.noBus)
        #expect(off.status == 78 && off.stderr.contains("set [sync] folder"), "\(off.stderr)")
        let (a, _, _) = try SyncCommandTests.pair()
        let bad = try a.run(["open", "engram://handoff/continue?device=x%20y"], env: Self.noBus)
        #expect(bad.status != 0 && bad.stderr.contains("'device' must be an id"), "\(bad.stderr)")
        #expect(try a.run(["sync", "now"], env: Self.noBus).status == 0)
        let nothing = try a.run(["open", "engram://handoff/continue"], env: Self.noBus)
        #expect(nothing.status == 66 && nothing.stderr.contains("nothing to continue"), "\(nothing.stderr)")
    }
}
