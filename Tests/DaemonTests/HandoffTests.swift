import DBus
@testable import Daemon
import EngramCore
import EngramTestSupport
import Foundation
import Testing

/// Handoff end to end: two devices, each with its own data folder, private bus, daemon and python-dbusmock as
/// notification server, sharing one sync folder. A session started on A is offered on B; B's Continue moves it,
/// and the time studied is the wall time, not counted twice.
@Suite(.serialized) struct HandoffTests {
    typealias D = DaemonFixture

    func notified(_ d: DaemonFixture) throws -> [DaemonFixture.Notified] { try d.notified() }

    /// Starts python-dbusmock's notification server on `d`'s bus and the daemon by activation.
    func startDevice(_ d: DaemonFixture) async throws {
        _ = try d.bus.spawn("/usr/bin/python3", ["-m", "dbusmock", "--template", "notification_daemon",
                                                 "-p", #"{"capabilities": "body actions persistence"}"#])
        #expect(try await eventually { try d.client.nameOwner("org.freedesktop.Notifications") != nil })
        _ = try d.call(D.appPath, "org.freedesktop.DBus.Properties", "Get", [.string(D.app), .string("MemoryCount")])
    }

    /// The handoff files in the sync folder, for failure messages.
    func folder(_ shared: String) -> String {
        let devices = shared + "/devices"
        return ((try? FileManager.default.contentsOfDirectory(atPath: devices)) ?? []).sorted().map { device in
            ((try? FileManager.default.contentsOfDirectory(atPath: devices + "/" + device)) ?? []).sorted().map { file in
                "\(device)/\(file)" + (file.hasSuffix(".json") ? ": " + ((try? String(contentsOfFile: devices + "/" + device + "/" + file, encoding: .utf8)) ?? "") : "")
            }.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// Two devices sharing a new sync folder, each with its data folder, private bus, daemon and mock notification
    /// server; the sample curriculum made on A and synced to B.
    func withTwoDevices(_ body: (DaemonFixture, DaemonFixture, String) async throws -> Void) async throws {
        let shared = NSTemporaryDirectory() + "engram-handoff-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: shared) }
        let config = "[sync]\nfolder = \"\(shared)\"\n"
        let poll = ["ENGRAM_TEST_SYNC_POLL_MS": "200"]
        try await withDaemon(samples: false, config: config, environment: poll) { a in
            try await withDaemon(samples: false, config: config, environment: poll) { b in
                #expect(try a.engram(["import", D.root + "/Samples/curricula/swift-concurrency.toml"]).status == 0)
                #expect(try a.engram(["sync", "now"]).status == 0)
                #expect(try b.engram(["sync", "now"]).status == 0)
                try await startDevice(a)
                try await startDevice(b)
                try await body(a, b, shared)
            }
        }
    }

    /// Presses Continue on `d`'s latest handoff offer: the mock server emits ActionInvoked for it, as a click would.
    /// (The mock numbers notifications from 1 in the order it was asked for new ones.)
    func pressContinue(_ d: DaemonFixture) throws {
        let calls = try notified(d)
        let index = try #require(calls.lastIndex { $0.summary == "Continue on this computer" })
        let notificationID = calls[index].replacesID != 0
            ? calls[index].replacesID : UInt32(calls[...index].filter { $0.replacesID == 0 }.count)
        _ = try d.callPeer("org.freedesktop.Notifications", "/org/freedesktop/Notifications", "org.freedesktop.DBus.Mock",
                           "EmitSignal", [.string(""), .string("ActionInvoked"), .string("us"),
                                          .array("v", [.variant(.uint32(notificationID)), .variant(.string("continue"))])])
    }

    func session(_ d: DaemonFixture, _ id: String) throws -> Session? {
        try Store(path: d.dataDir + "/engram.sqlite").session(id: id)
    }

    @Test func aSessionStartedOnAIsContinuedOnBWithoutCountingTwice() async throws {
        try await withTwoDevices { a, b, shared in

            let t0 = Date.wallNow  // the clock the daemons stamp sessions with
            let started = try a.engram(["session", "start", "--curriculum", "swift-concurrency"])
            #expect(started.status == 0, "\(started.stderr)")
            let id = try #require(try Store(path: a.dataDir + "/engram.sqlite").activeSession()?.id)

            // B offers it; A, whose activity it is, does not.
            #expect(try await eventually(timeout: .seconds(30)) {
                try notified(b).contains { $0.summary == "Continue on this computer" }
            }, "B never offered A's session: \((try? notified(b))?.map(\.summary) ?? []); `engram handoff` on B: \((try? b.engram(["handoff"]))?.text ?? "")")
            let offer = try #require(try notified(b).first { $0.summary == "Continue on this computer" })
            #expect(offer.body.hasPrefix("Swift Concurrency — Sendable, 0 min\nfrom "), "\(offer.body)")
            #expect(offer.actions == ["default", "continue"])
            #expect(try !notified(a).contains { $0.summary == "Continue on this computer" }, "A never offers its own session")

            try await Task.sleep(for: .seconds(3))  // A studies a while before the move
            #expect(try notified(b).filter { $0.summary == "Continue on this computer" }.count == 1, "one offer, shown once")
            try pressContinue(b)

            // A paused its stretch as of the claim and says it handed the session to B; B runs it from that moment.
            // (Sessions are synced: once B's resume reaches A, A's copy shows it running too — on B.)
            let aID = try #require(try Store(path: a.dataDir + "/engram.sqlite").syncDevice())
            let bID = try #require(try Store(path: b.dataDir + "/engram.sqlite").syncDevice())
            func activity(_ device: String) -> HandoffActivity.SessionPart? {
                HandoffActivity.read(shared + "/devices/\(device)/activity.json", device: device)?.session
            }
            #expect(try await eventually(timeout: .seconds(20)) {
                try activity(aID)?.state == "paused" && activity(aID)?.handedTo == bID
                    && activity(bID)?.state == "running" && session(b, id)?.state == .running
            }, "A: \(String(describing: try? session(a, id)?.state)), B: \(String(describing: try? session(b, id)?.state)); \(folder(shared))")
            let handedAt = try #require(activity(aID)).elapsedSeconds
            #expect(handedAt >= 2.5, "A kept the time it ran: \(handedAt)")
            let onB = try #require(try session(b, id))
            #expect(abs(onB.accumulatedSeconds - handedAt) < 0.01, "B starts from A's time: \(onB.accumulatedSeconds) vs \(handedAt)")
            #expect(onB.resumed.map { abs($0.timeIntervalSince(t0) - handedAt) < 1.0 } == true, "B's stretch starts at the claim")

            try await Task.sleep(for: .seconds(2))  // B studies a while
            let stopped = try b.engram(["session", "stop"])
            let t1 = Date.wallNow
            #expect(stopped.status == 0, "\(stopped.stderr)")
            #expect(try await eventually(timeout: .seconds(20)) {
                try session(a, id)?.state == .stopped && session(b, id)?.state == .stopped
                    && session(a, id)?.accumulatedSeconds == session(b, id)?.accumulatedSeconds
            }, "the stop reached A with the same total: A \(String(describing: try? session(a, id))), B \(String(describing: try? session(b, id))); \(folder(shared))")
            let total = try #require(try session(b, id)).accumulatedSeconds
            let wall = t1.timeIntervalSince(t0)
            #expect(total <= wall + 0.2 && total >= wall - 1.5,
                    "studied \(total) s over \(wall) s of wall time (counted twice would be about \(wall + handedAt) s)")
        }
    }

    /// Continue pressed on B when B cannot continue (its own folder in the sync folder is not a folder, so the claim
    /// cannot be written): B says so in a notification, not only in its log, and the session stays on A.
    @Test func aContinueThatFailsIsSaidInANotification() async throws {
        try await withTwoDevices { a, b, shared in
            #expect(try a.engram(["session", "start", "--curriculum", "swift-concurrency"]).status == 0)
            let id = try #require(try Store(path: a.dataDir + "/engram.sqlite").activeSession()?.id)
            #expect(try await eventually(timeout: .seconds(30)) {
                try notified(b).contains { $0.summary == "Continue on this computer" }
            }, "B never offered A's session: \(folder(shared))")
            // B's own folder becomes a file: the claim has nowhere to go.
            let bID = try #require(try Store(path: b.dataDir + "/engram.sqlite").syncDevice())
            let own = shared + "/devices/" + bID
            try FileManager.default.removeItem(atPath: own)
            try Data("not a folder\n".utf8).write(to: URL(fileURLWithPath: own))
            try pressContinue(b)
            #expect(try await eventually(timeout: .seconds(20)) {
                try notified(b).contains { $0.summary == HandoffService.failedSummary && !$0.body.isEmpty }
            }, "B said nothing: \((try? notified(b))?.map(\.summary) ?? [])")
            #expect(try session(a, id)?.state == .running, "the session stays where it was")
            let aID = try #require(try Store(path: a.dataDir + "/engram.sqlite").syncDevice())
            let onA = HandoffActivity.read(shared + "/devices/\(aID)/activity.json", device: aID)?.session
            #expect(onA?.state == "running" && onA?.handedTo == nil, "A handed nothing over: \(String(describing: onA))")
        }
    }

    @Test func offersAreEscapedForMarkupAndKeptLiteralOtherwise() {
        let activity = HandoffActivity(device: "0123456789abcdef", deviceName: "<i>laptop</i>", written: Date(),
                                       session: .init(id: "s1", curriculum: "Rust & <b>C</b>", topic: "a < b", state: "running",
                                                      elapsedSeconds: 754))
        let offer = Handoff.Offer(activity: activity, kind: .session, age: 3, minutes: 12)
        #expect(offer.text == "Rust & <b>C</b> — a < b, 12 min")
        let request = HandoffService.request(offer, replacing: 7, markup: true)
        #expect(request.summary == "Continue on this computer")
        #expect(request.body == "Rust &amp; &lt;b&gt;C&lt;/b&gt; — a &lt; b, 12 min\nfrom &lt;i&gt;laptop&lt;/i&gt;")
        #expect(request.replacesID == 7)
        #expect(request.actions.map(\.key) == ["default", "continue"])
        // A server without body markup shows the body as it is sent: no entities.
        let plain = HandoffService.request(offer, replacing: 7, markup: false)
        #expect(plain.body == "Rust & <b>C</b> — a < b, 12 min\nfrom <i>laptop</i>")
    }
}
