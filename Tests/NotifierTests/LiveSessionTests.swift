import DBus
import EngramCore
import EngramTestSupport
import Foundation
import Testing
@testable import Notifier

/// `LiveSession` as the daemon hosts it (`.active`), for as long as it runs.
@Suite struct LiveSessionTests {
    /// A process identity that names no running process (pid 0 never does).
    static let deadHost = "0:1:gone"

    @Test("The daemon shows each learning session once, leaves a running capture to its own process, and never revives an ended one")
    func hostsLearningSessions() async throws {
        let dir = TempDir()
        let store = try makeStore(dir)
        let server = InMemoryNotificationServer(name: "dunst", capabilities: ["body", "actions", "x-dunst-stack-tag"])
        let live = LiveSession(store: store, scope: .active, options: fastOptions(), surfaces: LiveSurfaces.notifications(server))
        let host = Task { await live.run() }

        let first = try store.startLearningSession(curriculumID: "rust")
        #expect(await eventually { server.requests.count == 1 }, "a session started from anywhere shows up")
        try #require(server.requests.count >= 1)
        #expect(server.requests[0].hints["x-dunst-stack-tag"] == .string("engram-session-\(first.id)"))
        #expect(try store.session(id: first.id)?.host == ProcessIdentity.current, "the daemon is recorded as its host")
        // Recorded once the server has answered, a moment after it saw the request.
        #expect(await eventually { (try? store.session(id: first.id)?.notification) == "1 :memory.1" }, "with the notification it shows")
        try store.transition(.stop)
        #expect(await eventually { server.requests.last?.summary.hasSuffix("— Stopped") == true })

        // A capture whose process runs (this one) is that process's to show.
        let capture = try store.startCaptureSession(title: "Inbox")
        let second = try store.startLearningSession(curriculumID: "rust")
        let secondTag = DBusValue.string("engram-session-\(second.id)")
        #expect(await eventually { server.requests.contains { $0.hints["x-dunst-stack-tag"] == secondTag } })
        try await Task.sleep(for: .milliseconds(300))
        #expect(!server.requests.contains { $0.summary.hasPrefix("Inbox") }, "no second notification for a capture its process shows")
        let firstOfSecond = server.requests.first { $0.hints["x-dunst-stack-tag"] == secondTag }
        #expect(firstOfSecond?.replacesID == 0, "the new session is a new notification, not the old one replaced")
        #expect(try store.session(id: capture.id)?.state == .running)

        // Shutting the host down takes down what nobody will update any more and lets go of the session.
        host.cancel()
        await host.value
        #expect(server.openIDs.count == 1, "only the stopped session's final notification stays: \(server.openIDs)")
        #expect(try store.session(id: second.id)?.host == nil, "the session is free for `--follow` or the next daemon")
    }

    @Test("A capture whose process died is ended as interrupted, its notification replaced in place, nothing it captured lost")
    func takesOverADeadCapture() async throws {
        let dir = TempDir()
        let store = try makeStore(dir)
        let server = InMemoryNotificationServer(name: "dunst", capabilities: ["body", "actions"])
        // What a capture process left behind when it was killed: a running session, a memory, its notification.
        let capture = try store.startCaptureSession(title: "Inbox", host: Self.deadHost)
        _ = try store.remember(MemoryDraft(content: "typed before the crash", source: "capture"))
        try store.recordCapture(sessionID: capture.id)
        let left = try await server.notify(NotificationRequest(appName: "Engram", summary: "Inbox — Capturing"))
        try store.recordNotification(sessionID: capture.id, host: Self.deadHost, NotificationHandOff(id: left, serverOwner: ":memory.1").encoded)

        let live = LiveSession(store: store, scope: .active, options: fastOptions(), surfaces: LiveSurfaces.notifications(server))
        let host = Task { await live.run() }
        #expect(await eventually { server.requests.last?.summary == "Inbox — Interrupted" })
        let end = try #require(server.requests.last)
        #expect(end.replacesID == left, "the notification the dead process left is replaced, not joined by a second")
        #expect(end.body == "1 memory saved")
        #expect(server.openIDs == [left])
        let ended = try #require(try store.session(id: capture.id))
        #expect(ended.state == .stopped && ended.isInterrupted && ended.progressDone == 1)
        #expect(try store.recentMemories(limit: 5).map(\.content) == ["typed before the crash"])
        host.cancel()
        await host.value
    }

    @Test("The daemon's final notification keeps an Open that opens the session's topic, until the daemon stops")
    func finalOpenWorksInTheDaemon() async throws {
        let dir = TempDir()
        let store = try makeStore(dir)
        let server = InMemoryNotificationServer(name: "dunst", capabilities: ["body", "actions"])
        let opener = RecordingLinkOpener()
        let live = LiveSession(store: store, scope: .active, options: fastOptions(), surfaces: LiveSurfaces.notifications(server),
                               opener: opener)
        let host = Task { await live.run() }
        _ = try store.startLearningSession(curriculumID: "rust")
        #expect(await eventually { server.requests.count == 1 })
        try store.transition(.stop)
        #expect(await eventually { server.requests.last?.summary.hasSuffix("— Stopped") == true })
        let final = try #require(server.requests.last)
        #expect(final.actions.map(\.key) == ["default"])

        server.invokeAction(id: 1, key: "default", activationToken: "tok")
        #expect(await eventually { !opener.links.isEmpty }, "Open on the ended session still does something")
        #expect(opener.links.first?.link == "engram://topic/rust-2", "the session's topic, not a fallback")
        #expect(opener.links.first?.token == "tok")

        // When the daemon stops, nothing answers the button any more: it goes, the notification stays.
        let before = server.requests.count
        host.cancel()
        await host.value
        #expect(server.requests.count == before + 1)
        #expect(server.requests.last?.replacesID == 1 && server.requests.last?.actions == [])
        #expect(server.requests.last?.summary.hasSuffix("— Stopped") == true)
        #expect(server.openIDs == [1])
    }
}
