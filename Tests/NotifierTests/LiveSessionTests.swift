import DBus
import EngramCore
import Foundation
import Testing
@testable import Notifier

/// `LiveSession` as the daemon hosts it: every active session, for as long as it runs.
@Suite struct LiveSessionTests {
    @Test("Hosted for every active session: each session gets its own notification, ended ones are not revived")
    func hostsEveryActiveSession() async throws {
        let dir = TempDir()
        let store = try makeStore(dir)
        let server = InMemoryNotificationServer(name: "dunst", capabilities: ["body", "actions", "x-dunst-stack-tag"])
        let live = LiveSession(store: store, scope: .active, options: fastOptions(), surfaces: LiveSurfaces.notifications(server))
        let host = Task { await live.run() }

        let first = try store.startLearningSession(curriculumID: "rust")
        #expect(await eventually { server.requests.count == 1 }, "a session started from anywhere shows up")
        try #require(server.requests.count >= 1)
        #expect(server.requests[0].hints["x-dunst-stack-tag"] == .string("engram-session-\(first.id)"))
        try store.transition(.stop)
        #expect(await eventually { server.requests.last?.summary.hasSuffix("— Stopped") == true })

        let capture = try store.startCaptureSession(title: "Inbox")
        let second = try store.startLearningSession(curriculumID: "rust")
        // Wait for the second session's own notification, not just its summary (an earlier one may carry it too).
        let secondTag = DBusValue.string("engram-session-\(second.id)")
        #expect(await eventually {
            Set(server.requests.map(\.summary)).isSuperset(of: ["Inbox — Capturing", "Rust: Topic 2 — Studying"])
                && server.requests.contains { $0.hints["x-dunst-stack-tag"] == secondTag }
        })
        let firstOfSecond = server.requests.first { $0.hints["x-dunst-stack-tag"] == .string("engram-session-\(second.id)") }
        #expect(firstOfSecond?.replacesID == 0, "the new session is a new notification, not the old one replaced")
        #expect(!server.requests.contains { $0.summary.hasPrefix("Inbox") && $0.hints["x-dunst-stack-tag"] != .string("engram-session-\(capture.id)") })

        // Shutting the host down takes down what nobody will update any more.
        host.cancel()
        await host.value
        #expect(server.openIDs.count == 1, "only the stopped session's final notification stays: \(server.openIDs)")
    }
}
