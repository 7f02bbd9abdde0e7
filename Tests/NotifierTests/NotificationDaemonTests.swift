import DBus
import EngramCore
import EngramTestSupport
import Foundation
import Testing
@testable import Notifier

/// A learning session followed by a `LiveSession` against python-dbusmock's notification daemon on a private bus.
final class MockHarness: @unchecked Sendable {
    let dir = TempDir()
    let bus: PrivateBus
    var daemon: MockNotificationDaemon
    let connection: DBusConnection
    let server: DBusNotificationServer
    let store: Store
    let opener = RecordingLinkOpener()
    let notes = NoteLog()
    let live: LiveSession
    let session: Session
    var runner: Task<Void, Never>?

    init(capabilities: String?, serverName: String? = nil, options: LiveSession.Options = fastOptions(),
         storeTitle: String = "Rust", kind: Session.Kind = .learning) throws {
        bus = try PrivateBus()
        daemon = try MockNotificationDaemon(bus: bus, capabilities: capabilities, serverName: serverName)
        connection = try bus.connect()
        server = try DBusNotificationServer(connection: connection)
        store = try makeStore(dir, title: storeTitle)
        session = kind == .learning ? try store.startLearningSession(curriculumID: "rust") : try store.startCaptureSession()
        let notes = self.notes
        live = LiveSession(store: store, scope: .session(id: session.id), options: options,
                           surfaces: LiveSurfaces.notifications(server), opener: opener, notice: { notes.add($0) })
    }

    func start() {
        let live = self.live
        runner = Task { await live.run() }
    }

    /// Waits for at least `count` Notify calls and returns them.
    func waitForNotifications(atLeast count: Int, timeout: Double = 5) async throws -> [NotificationRequest] {
        _ = await eventually(timeout: timeout) { try daemon.notifications().count >= count }
        return try daemon.notifications()
    }

    func finish() async {
        runner?.cancel()
        await runner?.value
        daemon.stop()
        connection.close()
        bus.stop()
    }
}

@Suite(.serialized) struct NotificationDaemonTests {
    /// Capabilities and what the person should see for them.
    struct Case: Sendable, CustomTestStringConvertible {
        let capabilities: String
        let serverName: String?
        let actions: Bool
        let markup: Bool
        let body: Bool
        let persistence: Bool
        let drawsProgress: Bool
        var testDescription: String { "\(serverName ?? "mock-notify"): [\(capabilities)]" }
    }

    static let cases: [Case] = [
        Case(capabilities: "body body-markup actions persistence x-dunst-stack-tag", serverName: nil,
             actions: true, markup: true, body: true, persistence: true, drawsProgress: true),
        Case(capabilities: "body", serverName: nil, actions: false, markup: false, body: true, persistence: false, drawsProgress: true),
        Case(capabilities: "actions", serverName: nil, actions: true, markup: false, body: false, persistence: false, drawsProgress: true),
        Case(capabilities: "actions body body-markup icon-static persistence sound", serverName: "gnome-shell",
             actions: true, markup: true, body: true, persistence: true, drawsProgress: false),
    ]

    @Test("Notify adapts to the server's capabilities", arguments: cases)
    func adaptsToCapabilities(_ c: Case) async throws {
        let h = try MockHarness(capabilities: c.capabilities, serverName: c.serverName, storeTitle: "Rust & <Friends>")
        h.start()
        let first = try #require(try await h.waitForNotifications(atLeast: 1).first)
        // The session on screen: 1 of 8 topics done, the title shown literally.
        #expect(first.appName == "Engram")
        let essentials = c.body ? "" : " · 1 of 8 topics done · under a minute"
        #expect(first.summary == "Rust & <Friends>: Topic 2 — Studying" + essentials, "the summary is plain text on every server")
        #expect(first.replacesID == 0)
        if c.body {
            #expect(first.body.hasPrefix("1 of 8 topics done · under a minute"))
        } else {
            #expect(first.body.isEmpty, "a server without `body` gets everything in the summary")
        }
        if c.drawsProgress {
            #expect(first.hints["value"] == .int32(12), "progress as an int32 `value` hint: 1 of 8 is 12 %")
            #expect(!first.body.contains("▓") && !first.summary.contains("░"))
        } else {
            #expect(first.hints["value"] == nil, "GNOME draws no `value`")
            #expect(first.body.contains("▓░░░░░░░░░ 12 %"), "GNOME gets a text bar: \(first.body)")
        }
        if c.actions {
            #expect(first.actions.map(\.key) == ["pause", "stop", "default"])
            #expect(first.actions.map(\.label) == ["Pause", "Stop", "Open"])
        } else {
            #expect(first.actions.isEmpty, "no buttons on a server without `actions`")
        }
        #expect(first.hints["x-dunst-stack-tag"] == (c.capabilities.contains("x-dunst-stack-tag") ? .string("engram-session-\(h.session.id)") : nil))
        #expect(first.hints["urgency"] == .byte(1), "the start is a transition: normal urgency, as a byte")

        // A silent tick: the next topic, same state.
        try h.store.completeCurrentTopic()
        let all = try await h.waitForNotifications(atLeast: 2)
        let tick = all[1]
        #expect(tick.replacesID == 1, "updated in place through replaces_id")
        #expect(tick.hints["urgency"] == .byte(0))
        #expect(tick.hints["transient"] == (c.persistence ? .boolean(true) : nil), "ticks bypass history only where there is one")
        #expect(tick.summary.contains("Topic 3"))
        if c.drawsProgress { #expect(tick.hints["value"] == .int32(25)) }

        // The end: normal urgency, not transient, no Pause.
        try h.store.transition(.stop)
        _ = await eventually { try h.daemon.notifications().last?.summary.contains("Stopped") == true }
        let last = try h.daemon.notifications().last!
        #expect(last.summary == "Rust & <Friends>: Topic 3 — Stopped" + (c.body ? "" : " · 2 of 8 topics done · under a minute"))
        #expect(last.hints["transient"] == nil && last.hints["urgency"] == .byte(1))
        #expect(last.actions.map(\.key) == (c.actions ? ["default"] : []))
        await h.finish()
    }

    @Test("Pause, Resume and Stop pressed on the notification drive the store's state machine")
    func actionsDriveTheStore() async throws {
        let h = try MockHarness(capabilities: "body body-markup actions persistence")
        h.start()
        let first = try await h.waitForNotifications(atLeast: 1)
        #expect(first.count == 1)
        try h.daemon.invoke(id: 1, key: "pause")
        #expect(await eventually { try h.store.session(id: h.session.id)?.state == .paused }, "Pause paused the session in the store")
        #expect(await eventually { try h.daemon.notifications().last?.summary.hasSuffix("— Paused") == true })
        #expect(try h.daemon.notifications().last?.actions.map(\.key) == ["resume", "stop", "default"])

        try h.daemon.invoke(id: 1, key: "resume")
        #expect(await eventually { try h.store.session(id: h.session.id)?.state == .running })
        #expect(await eventually { try h.daemon.notifications().last?.summary.hasSuffix("— Studying") == true })

        // A button press that the server answers by closing with reason 2 is not a dismissal.
        try h.daemon.invoke(id: 1, key: "pause")
        try h.daemon.close(id: 1, reason: 2)
        #expect(await eventually { try h.store.session(id: h.session.id)?.state == .paused })
        #expect(await eventually { try h.daemon.notifications().last?.summary.hasSuffix("— Paused") == true },
                "the notification closed by the press comes back with the new state")

        let count = try h.daemon.notifications().count
        let lastID = try h.daemon.notifications().last!.replacesID
        try h.daemon.invoke(id: lastID == 0 ? 2 : lastID, key: "stop")
        #expect(await eventually { try h.store.session(id: h.session.id)?.state == .stopped }, "Stop stopped the session")
        #expect(await eventually { try h.daemon.notifications().count > count })
        #expect(try h.daemon.notifications().last!.summary.hasSuffix("— Stopped"))
        await h.runner?.value  // run() returns once the followed session has ended
        await h.finish()
    }

    @Test("A notification the person dismissed is never shown again, while the session goes on")
    func dismissalIsFinal() async throws {
        let h = try MockHarness(capabilities: "body actions persistence")
        h.start()
        _ = try await h.waitForNotifications(atLeast: 1)
        try h.daemon.close(id: 1, reason: 2)
        try await Task.sleep(for: .milliseconds(300))
        let shown = try h.daemon.notifications().count

        // The CLI pauses, resumes and advances; every change lands in the store, none on screen.
        try h.store.transition(.pause)
        try await Task.sleep(for: .milliseconds(500))
        try h.store.transition(.resume)
        try h.store.completeCurrentTopic()
        try await Task.sleep(for: .milliseconds(500))
        #expect(try h.store.session(id: h.session.id)?.progressDone == 2)
        try h.store.transition(.stop)
        await h.runner?.value
        #expect(try h.store.session(id: h.session.id)?.state == .stopped)
        #expect(try h.daemon.notifications().count == shown, "no Notify after the dismissal, not even the end")
        await h.finish()
    }

    @Test("Open passes the activation token on to what it launches")
    func openPassesTheActivationToken() async throws {
        let h = try MockHarness(capabilities: "body actions")
        h.start()
        _ = try await h.waitForNotifications(atLeast: 1)
        try h.daemon.invoke(id: 1, key: "default", token: "token-42")
        #expect(await eventually { !h.opener.links.isEmpty })
        #expect(h.opener.links.first?.link == "engram://topic/rust-2")
        #expect(h.opener.links.first?.token == "token-42")
        #expect(try h.store.session(id: h.session.id)?.state == .running, "Open does not change the session")
        await h.finish()
    }

    @Test("The notification server killed mid-session: the session goes on and the notification comes back")
    func serverRestart() async throws {
        let h = try MockHarness(capabilities: "body actions persistence x-dunst-stack-tag")
        h.start()
        _ = try await h.waitForNotifications(atLeast: 1)
        try h.daemon.kill()

        // Without a server the session keeps working from the CLI.
        try h.store.transition(.pause)
        try h.store.completeCurrentTopic()
        try await Task.sleep(for: .milliseconds(600))
        #expect(try h.store.session(id: h.session.id)?.state == .paused)

        h.daemon = try MockNotificationDaemon(bus: h.bus, capabilities: "body actions persistence x-dunst-stack-tag")
        let back = try await h.waitForNotifications(atLeast: 1)
        #expect(back.count == 1)
        #expect(back[0].replacesID == 0, "a new server knows no old id: a fresh notification")
        #expect(back[0].summary == "Rust: Topic 3 — Paused", "it shows the state reached while the server was away")
        #expect(back[0].hints["value"] == .int32(25))

        try h.daemon.invoke(id: back[0].replacesID == 0 ? 1 : back[0].replacesID, key: "resume")
        #expect(await eventually { try h.store.session(id: h.session.id)?.state == .running }, "its buttons work")
        await h.finish()
    }

    @Test("A Notify the server fails is not taken as shown: the latest state is sent again")
    func failedNotifyIsRetried() async throws {
        let h = try MockHarness(capabilities: "body actions persistence")
        h.start()
        _ = try await h.waitForNotifications(atLeast: 1)
        try h.daemon.failNotify(times: 1)
        try h.store.transition(.pause)
        // The first “Paused” fails; nothing changes in the store after it, yet it reaches the screen.
        #expect(await eventually { try h.daemon.notifications().filter { $0.summary.hasSuffix("— Paused") }.count == 2 },
                "\((try? h.daemon.notifications().map(\.summary)) ?? [])")
        let last = try #require(try h.daemon.notifications().last)
        #expect(last.summary == "Rust: Topic 2 — Paused" && last.replacesID == 1, "the same notification, now showing Paused")
        try await Task.sleep(for: .milliseconds(500))
        #expect(try h.daemon.notifications().count == 3, "once shown, the same state is not sent again")
        await h.finish()
    }

    @Test("No server at the start and its activation failing: the session waits, and is posted when a server appears")
    func serverAppearsAfterFailedActivation() async throws {
        // An activatable notification service whose program fails, as a dunst that cannot start.
        let bus = try PrivateBus(services: ["org.freedesktop.Notifications.service":
            "[D-BUS Service]\nName=org.freedesktop.Notifications\nExec=/bin/false\n"])
        let connection = try bus.connect()
        let server = try DBusNotificationServer(connection: connection)
        let dir = TempDir()
        let store = try makeStore(dir)
        let session = try store.startLearningSession(curriculumID: "rust")
        let notes = NoteLog()
        let live = LiveSession(store: store, scope: .session(id: session.id), options: fastOptions(),
                               surfaces: LiveSurfaces.notifications(server), notice: { notes.add($0) })
        let runner = Task { await live.run() }
        #expect(await eventually(timeout: 10) { notes.all.contains { $0.contains("no notification server") } },
                "a server that cannot be started is no server: \(notes.all)")

        let daemon = try MockNotificationDaemon(bus: bus, capabilities: "body actions")
        #expect(await eventually { try daemon.notifications().count == 1 }, "posted once a server is there")
        #expect(try daemon.notifications().first?.summary == "Rust: Topic 2 — Studying")
        try store.transition(.pause)
        #expect(await eventually { try daemon.notifications().last?.summary == "Rust: Topic 2 — Paused" })
        runner.cancel()
        await runner.value
        daemon.stop()
        connection.close()
        bus.stop()
    }

    @Test("A capture shows Processing while it links, before Complete, in one notification")
    func processingIsShown() async throws {
        let bus = try PrivateBus()
        let daemon = try MockNotificationDaemon(bus: bus, capabilities: "body actions persistence")
        let connection = try bus.connect()
        let server = try DBusNotificationServer(connection: connection)
        let dir = TempDir()
        let store = try makeStore(dir)
        let capture = try LiveCapture(store: store, title: "Inbox") { session in
            LiveSession(store: store, scope: .session(id: session.id), options: fastOptions(), surfaces: LiveSurfaces.notifications(server))
        }
        let runner = Task { await capture.live!.run() }
        try await capture.capture("first thought")
        #expect(await eventually { try daemon.notifications().count == 1 })
        let seenWhileLinking = NoteLog()
        let ended = try await capture.finish { _ in
            seenWhileLinking.add((try? daemon.notifications().last?.summary) ?? "none")
            return true
        }
        await runner.value
        #expect(seenWhileLinking.all == ["Inbox — Processing"], "on screen while linking: \(seenWhileLinking.all)")
        let calls = try daemon.notifications()
        #expect(calls.map(\.summary) == ["Inbox — Capturing", "Inbox — Processing", "Inbox — Complete"])
        #expect(calls.first?.replacesID == 0 && calls.dropFirst().allSatisfy { $0.replacesID == 1 }, "one notification throughout")
        #expect(calls.last?.body.hasPrefix("1 memory saved and linked") == true, "\(calls.last?.body ?? "")")
        #expect(ended.state == .completed)
        daemon.stop()
        connection.close()
        bus.stop()
    }

    @Test("Without a notification server a capture session works and says so once")
    func noServer() async throws {
        let bus = try PrivateBus()
        let connection = try bus.connect()
        let server = try DBusNotificationServer(connection: connection)
        let dir = TempDir()
        let store = try makeStore(dir)
        let notes = NoteLog()
        let capture = try LiveCapture(store: store) { session in
            LiveSession(store: store, scope: .session(id: session.id), options: fastOptions(),
                        surfaces: LiveSurfaces.notifications(server), notice: { notes.add($0) })
        }
        let runner = Task { await capture.live!.run() }
        for line in ["one", "two", "three"] { try await capture.capture(line) }
        let ended = try await capture.finish { progress in
            progress(1, 1)
            return true
        }
        await runner.value
        #expect(ended.state == .completed && ended.progressDone == 3)
        #expect(try store.recentMemories(limit: 5).filter { $0.source == "capture" }.count == 3)
        #expect(notes.all.count == 1, "one note, not one per update: \(notes.all)")
        #expect(notes.all.first?.contains("no notification server") == true)
        connection.close()
        bus.stop()
    }
}
