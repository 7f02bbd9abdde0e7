import DBus
import EngramCore
import EngramTestSupport
import Foundation
import Glibc
import Notifier
import Testing

/// Live notifications with the real daemon on a private bus and python-dbusmock as the notification server:
/// each session is shown by exactly one process.
@Suite(.serialized) struct LiveSessionHostTests {
    typealias D = DaemonFixture

    /// A daemon started by activation, with python-dbusmock's notification server beside it on the bus.
    func withDaemonAndServer(_ body: (DaemonFixture) async throws -> Void) async throws {
        try await withDaemon(samples: false) { d in
            let curriculum = D.root + "/Samples/curricula/swift-concurrency.toml"
            guard try d.engram(["import", curriculum]).status == 0 else { throw TestError("import failed") }
            try d.bus.spawn("/usr/bin/python3", ["-m", "dbusmock", "--template", "notification_daemon",
                                                 "-p", #"{"capabilities": "body actions persistence x-dunst-stack-tag"}"#])
            #expect(try await eventually { try d.client.nameOwner("org.freedesktop.Notifications") != nil })
            _ = try d.call(D.appPath, "org.freedesktop.DBus.Properties", "Get", [.string(D.app), .string("MemoryCount")])
            try await body(d)
        }
    }

    /// Every Notify the mock received, oldest first.
    func notified(_ d: DaemonFixture) throws -> [DaemonFixture.Notified] { try d.notified() }

    @Test func followDefersToTheDaemonAndEachSessionGetsOneNotification() async throws {
        try await withDaemonAndServer { d in
            let follow = try ChildProcess.spawn(D.engramBinary, ["session", "start", "--curriculum", "swift-concurrency", "--follow"],
                                                environment: d.environment)
            defer { follow.kill() }
            #expect(try await eventually { try notified(d).contains { $0.summary.hasSuffix("— Studying") } })
            let session = try #require(try Store(path: d.dataDir + "/engram.sqlite").activeSession())
            #expect(session.host.flatMap(ProcessIdentity.pid(of:)) == (try d.daemonPID()), "--follow left the notification to the daemon")
            #expect(try d.engram(["session", "pause"]).status == 0)
            #expect(try await eventually { try notified(d).last?.summary.hasSuffix("— Paused") == true })
            #expect(try d.engram(["session", "stop"]).status == 0)
            #expect(try await eventually { try notified(d).last?.summary.hasSuffix("— Stopped") == true })
            #expect(await eventually { !follow.isRunning }, "--follow returns when the session ends")

            let calls = try notified(d).filter { $0.tag == "engram-session-\(session.id)" }
            #expect(calls.filter { $0.replacesID == 0 }.count == 1, "one notification for the session: \(calls.map(\.replacesID))")
            #expect(calls.dropFirst().allSatisfy { $0.replacesID == 1 })
            #expect(calls.last?.actions == ["default"], "the daemon stays to answer the end's Open")

            // A capture with the daemon running: shown by the capture alone.
            let input = d.base + "/lines.txt"
            try "one\ntwo\n".write(toFile: input, atomically: true, encoding: .utf8)
            let capture = try Run.program("/bin/sh", ["-c", "exec '\(D.engramBinary)' capture --dismiss-after 0 < '\(input)'"],
                                          environment: d.environment)
            #expect(capture.status == 0 && capture.stdout.hasPrefix("Captured 2 memories"), "\(capture.stderr)")
            try await Task.sleep(for: .milliseconds(800))  // a daemon host would have shown it by now
            let captured = try notified(d).filter { $0.summary.hasPrefix("Capture — ") }
            #expect(captured.filter { $0.replacesID == 0 }.count == 1, "one notification for the capture: \(captured.map(\.summary))")
            #expect(captured.last?.summary == "Capture — Complete")
            #expect(captured.last?.body.hasPrefix("2 memories saved and linked") == true,
                    "the daemon, as index writer, linked them before capture finished: \(captured.last?.body ?? "")")
            #expect(!capture.stderr.contains("will be linked in a moment"), "and the terminal agrees: \(capture.stderr)")
        }
    }

    @Test func aKilledCaptureIsEndedByTheDaemonInPlace() async throws {
        try await withDaemonAndServer { d in
            let fifo = d.base + "/typing"
            #expect(mkfifo(fifo, 0o600) == 0)
            let writer = open(fifo, O_RDWR | O_CLOEXEC)
            defer { close(writer) }
            let capture = try ChildProcess.spawn("/bin/sh", ["-c", "exec '\(D.engramBinary)' capture < '\(fifo)'"], environment: d.environment)
            defer { capture.kill() }
            let line = Array("typed before the kill\n".utf8)
            #expect(write(writer, line, line.count) == line.count)
            // The capture shows the line typed (in its first Notify, or in the one updating it: the line may come
            // in before the first goes out).
            #expect(try await eventually {
                try notified(d).contains { $0.summary == "Capture — Capturing" && $0.body.contains("typed before the kill") }
            }, "\((try? notified(d))?.map { "\($0.summary): \($0.body)" } ?? [])")

            // Killed once it has recorded its notification for a successor (a kill in the instant between the
            // server's receipt and that record leaves nothing to replace; the parallel test runs hit it).
            // The record names the server that showed it (a record without one is never adopted), and the capture's
            // own last update (the count of what it saved) is out, so nothing of the capture's comes after the kill.
            let store = try Store(path: d.dataDir + "/engram.sqlite")
            #expect(try await eventually {
                try store.sessions(limit: 1).first?.notification.flatMap(NotificationHandOff.init(encoded:))?.serverOwner != nil
            }, "the capture recorded its notification with the server's name")
            #expect(try await eventually { try notified(d).last?.body.contains("1 memory") == true },
                    "the capture counted its line: \((try? notified(d))?.last?.body ?? "")")
            capture.kill()
            // The daemon looks every half second and may retry a notification server that is slow to answer (three
            // tries, up to three seconds each) while the parallel tests load the machine.
            #expect(try await eventually(timeout: .seconds(30)) { try notified(d).last?.summary == "Capture — Interrupted" },
                    "the daemon noticed the capture's process is gone")
            let end = try #require(try notified(d).last)
            // It replaces a notification, and only one was ever created: the one the killed capture left.
            #expect(end.replacesID != 0, "the notification the killed capture left is replaced, not joined by another")
            #expect(try notified(d).filter { $0.replacesID == 0 }.count == 1, "one notification in all")
            #expect(try store.activeCaptures().isEmpty)
            #expect(try store.sessions(limit: 1).first?.state == .stopped)
            #expect(try store.recentMemories(limit: 1).first?.content == "typed before the kill", "what it captured is kept")
        }
    }
}
