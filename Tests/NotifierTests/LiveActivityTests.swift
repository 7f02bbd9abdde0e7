import DBus
import EngramCore
import EngramTestSupport
import Foundation
import Testing
@testable import Notifier

/// The live-activity rules on the in-memory server: no bus, so timing is the only thing under test.
@Suite struct LiveActivityTests {
    static func content(_ status: String = "Studying", _ done: Int = 1) -> ActivityContent {
        ActivityContent(title: "Rust", status: status, details: ["\(done) of 8 topics done"],
                        progress: .init(done: done, total: 8), buttons: [ActivityButton(.pause), ActivityButton(.stop)])
    }

    func make(_ server: InMemoryNotificationServer, interval: Duration = .milliseconds(100), staleAfter: Duration? = nil,
              events: EventLog = EventLog()) async -> LiveActivity {
        let surface = NotificationSurface(server: server, renderer: NotificationRenderer(stackTag: "t"))
        let activity = LiveActivity(surface: surface, options: .init(minimumInterval: interval, staleAfter: staleAfter)) { events.add($0) }
        await activity.start()
        return activity
    }

    @Test("Unchanged content is not sent again, and out-of-order updates are dropped")
    func unchangedAndStale() async throws {
        let server = InMemoryNotificationServer()
        let activity = await make(server)
        await activity.update(Self.content(), sequence: 10)
        #expect(await eventually { server.requests.count == 1 })
        for s in 11...20 { await activity.update(Self.content(), sequence: UInt64(s)) }
        await activity.update(Self.content("Studying", 5), sequence: 3)  // older than 20: stale
        try await Task.sleep(for: .milliseconds(400))
        #expect(server.requests.count == 1, "the same content again is not resent")
        #expect(await activity.statistics.droppedStale == 1)
        await activity.update(Self.content("Studying", 2), sequence: 21)
        #expect(await eventually { server.requests.count == 2 })
        try #require(server.requests.count >= 2)
        #expect(server.requests[1].hints["value"] == .int32(25))
        #expect(server.requests[1].replacesID == 1)
    }

    @Test("The watchdog shows a silent activity as stalled, and the next update brings it back")
    func watchdog() async throws {
        let server = InMemoryNotificationServer()
        let activity = await make(server, staleAfter: .milliseconds(400))
        await activity.update(Self.content())
        #expect(await eventually(timeout: 3) { server.requests.last?.summary == "Rust — Stalled" })
        #expect(server.requests.last?.body.hasPrefix("No update for under a minute") == true)
        #expect(await activity.phase == .stale)
        await activity.update(Self.content("Studying", 2))
        #expect(await activity.phase == .active)
        #expect(await eventually { server.requests.contains { $0.summary == "Rust — Studying" && $0.body.hasPrefix("2 of 8") } })
    }

    @Test("Dismissal policies: immediate closes at once, after(t) closes on our own timer, default leaves it")
    func dismissalPolicies() async throws {
        for (policy, expectClose) in [(DismissalPolicy.immediate, true), (.after(.milliseconds(300)), true), (.default, false)] {
            let server = InMemoryNotificationServer()
            let activity = await make(server)
            await activity.update(Self.content())
            #expect(await eventually { server.requests.count == 1 })
            await activity.end(Self.content("Complete", 8), dismissal: policy)
            let final = try #require(server.requests.last)
            #expect(final.summary == "Rust — Complete")
            if case .after = policy {
                #expect(final.expireTimeout == 300, "servers that honour timeouts get it too")
                #expect(server.closedIDs.isEmpty, "not yet")
                await activity.waitForDismissal()
            }
            if policy == .default { #expect(final.expireTimeout == -1) }
            #expect(server.closedIDs == (expectClose ? [1] : []), "\(policy)")
            // Ending again is a no-op.
            await activity.end(Self.content("Stopped", 8), dismissal: .immediate)
            #expect(server.requests.last?.summary == "Rust — Complete")
            #expect(server.closedIDs.count == (expectClose ? 1 : 0))
        }
    }

    @Test("A server that stops and starts again gets the current state reposted")
    func repostAfterRestart() async throws {
        let server = InMemoryNotificationServer()
        let events = EventLog()
        let activity = await make(server, events: events)
        await activity.update(Self.content())
        #expect(await eventually { server.requests.count == 1 })
        server.stop()
        await activity.update(Self.content("Paused", 3))
        #expect(await eventually { events.all.contains(.unavailable("not running")) }, "the owner hears it")
        await activity.update(Self.content("Paused", 4))
        try await Task.sleep(for: .milliseconds(300))
        #expect(server.requests.count == 1, "nothing reaches a stopped server")
        #expect(events.all.filter { $0 == .unavailable("not running") }.count == 1, "once, not per update")
        server.start()
        #expect(await eventually { server.requests.count == 2 })
        try #require(server.requests.count >= 2)
        #expect(server.requests[1].summary == "Rust — Paused")
        #expect(server.requests[1].hints["value"] == .int32(50), "the latest state, 4 of 8")
        #expect(server.requests[1].replacesID == 0, "a fresh notification on the new server")
    }

    @Test("A server that comes back while the same content is offered again (a polling host) still gets it reposted")
    func repostWhileTheSameContentIsPending() async throws {
        let server = InMemoryNotificationServer()
        let events = EventLog()
        let activity = await make(server, interval: .milliseconds(600), events: events)
        await activity.update(Self.content())
        #expect(await eventually { server.requests.count == 1 })
        server.stop()
        try await Task.sleep(for: .milliseconds(700))
        await activity.update(Self.content("Paused", 3))
        #expect(await eventually { events.all.contains(.unavailable("not running")) })
        // As LiveSession does every 500 ms: the same content again, held back by the throttle when the server returns.
        await activity.update(Self.content("Paused", 3))
        server.start()
        #expect(await eventually { server.requests.count == 2 }, "the paused state is shown on the new server")
        try #require(server.requests.count >= 2)
        #expect(server.requests[1].summary == "Rust — Paused")
    }

    @Test("The close a server answers a button press with is not a dismissal; the person's next close is, even right after")
    func dismissalVersusAction() async throws {
        let server = InMemoryNotificationServer()
        let events = EventLog()
        let activity = await make(server, events: events)
        await activity.update(Self.content())
        #expect(await eventually { server.requests.count == 1 })
        server.invokeAction(id: 1, key: "pause")
        server.close(id: 1, reason: .dismissed)
        #expect(await eventually { events.all.contains(.action(.pause)) })
        await activity.update(Self.content("Paused"))
        #expect(await eventually { server.requests.count == 2 }, "it comes back with the new state")
        #expect(await activity.phase == .active)
        try #require(server.requests.count == 2)
        #expect(server.requests[1].replacesID == 0, "the closed one is gone: a new notification")

        // Within the grace of the press, but the press's close was already excused: this one is the person's.
        server.close(id: 2, reason: .dismissed)
        #expect(await eventually { events.all.contains(.dismissedByUser) })
        await activity.update(Self.content("Studying", 4))
        await activity.end(Self.content("Complete", 8), dismissal: .default)
        #expect(server.requests.count == 2, "never re-popped, not even for the end")
        #expect(await activity.phase == .dismissed)
    }

    @Test("Open launches the link with the activation token in the environment")
    func processOpenerPassesToken() throws {
        let dir = TempDir()
        let script = dir.path + "/open.sh"
        let output = dir.path + "/opened.txt"
        try writeScript("#!/bin/sh\nprintf '%s %s %s' \"$1\" \"$XDG_ACTIVATION_TOKEN\" \"$DESKTOP_STARTUP_ID\" > '\(output)'\n", to: script)
        try ProcessLinkOpener(command: [script]).open("engram://topic/rust-2", activationToken: "tok-1")
        let deadline = Date().addingTimeInterval(5)
        while !FileManager.default.fileExists(atPath: output), Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        Thread.sleep(forTimeInterval: 0.1)
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "engram://topic/rust-2 tok-1 tok-1")
    }

    @Test("What the opener says on standard error goes to its report as our own lines, with a failing exit status")
    func openerErrorsAreReported() async throws {
        let dir = TempDir()
        let script = dir.path + "/open.sh"
        try writeScript("#!/bin/sh\necho \"no method available for opening '$1'\" >&2\nexit 3\n", to: script)
        let reports = NoteLog()
        try ProcessLinkOpener(command: [script], report: { reports.add($0) }).open("engram://memory/m1", activationToken: nil)
        #expect(await eventually { reports.all.count == 2 }, "\(reports.all)")
        #expect(reports.all.contains("open.sh (opening engram://memory/m1): no method available for opening 'engram://memory/m1'"),
                "the opener's complaint is read, not left to reach the terminal: \(reports.all)")
        #expect(reports.all.contains("open.sh could not open engram://memory/m1 (exit status 3)"))
    }
}

/// Activity events seen by an owner.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [ActivityEvent] = []
    func add(_ e: ActivityEvent) { lock.withLock { events.append(e) } }
    var all: [ActivityEvent] { lock.withLock { events } }
}
