import DBus
import EngramCore
import EngramTestSupport
import Foundation
import Testing
@testable import Notifier

/// KDE's job progress protocol against a python-dbusmock job view server (Tests/NotifierTests/Fixtures/jobviewserver.py).
@Suite(.serialized) struct JobViewTests {
    static let template = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/jobviewserver.py").path

    final class Harness: @unchecked Sendable {
        let dir = TempDir()
        let bus: PrivateBus
        let mock: ChildProcess
        let probe: DBusConnection
        let connection: DBusConnection
        let store: Store
        let session: Session
        let live: LiveSession
        var runner: Task<Void, Never>?

        init(legacy: Bool, refuseFirst: Int = 0) throws {
            bus = try PrivateBus()
            var arguments = ["-m", "dbusmock", "--template", JobViewTests.template]
            if legacy { arguments += ["-p", #"{"legacy_only": true}"#] }
            if refuseFirst > 0 { arguments += ["-p", #"{"refuse_first": \#(refuseFirst)}"#] }
            mock = try bus.spawn(MockNotificationDaemon.python, arguments)
            probe = try bus.connect()
            let deadline = Date().addingTimeInterval(15)
            while (try? probe.nameOwner(DBusJobViewServer.busName)) == nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            connection = try bus.connect()
            #expect(DBusJobViewServer.isRunning(on: connection))
            store = try makeStore(dir, topics: 4)
            session = try store.startLearningSession(curriculumID: "rust")
            // The automatic choice: a job view server runs, so no notification is used.
            live = LiveSession(store: store, scope: .session(id: session.id), options: fastOptions(),
                               surfaces: try LiveSurfaces.automatic(connection: connection))
            let live = self.live
            runner = Task { await live.run() }
        }

        func mockCall(_ path: DBusObjectPath, _ method: String, _ arguments: [DBusValue] = []) throws -> [DBusValue] {
            try probe.call(destination: DBusJobViewServer.busName, path: path, interface: "org.freedesktop.DBus.Mock",
                           method: method, arguments: arguments, timeout: .seconds(10))
        }

        /// The arguments of every call to `method` on the object at `path`.
        func calls(_ path: DBusObjectPath, _ method: String) -> [[DBusValue]] {
            let reply = (try? mockCall(path, "GetMethodCalls", [.string(method)])) ?? []
            return (reply.first?.arrayValue ?? []).map { ($0[1]?.arrayValue ?? []).map(\.unwrapped) }
        }

        func emit(_ path: DBusObjectPath, interface: String, _ signal: String) throws {
            _ = try mockCall(path, "EmitSignal", [.string(interface), .string(signal), .string(""), .array("v", [])])
        }

        func finish() async {
            runner?.cancel()
            await runner?.value
            mock.kill()
            probe.close()
            connection.close()
            bus.stop()
        }
    }

    @Test("On KDE the session is a JobViewV3 job: fields, Pause/Resume/Cancel, final update then terminate")
    func jobViewV3() async throws {
        let h = try Harness(legacy: false)
        let view: DBusObjectPath = "/org/kde/notificationmanager/jobs/JobView_1"
        #expect(await eventually { h.calls(view, "update").count >= 1 }, "a view was requested and filled")
        let requests = h.calls("/JobViewServer", "requestView")
        #expect(requests.count == 1)
        #expect(requests.first?[0].stringValue == "org.engram.Engram")
        #expect(requests.first?[1].int32Value == 3, "cancellable and suspendable")
        let first = try #require(h.calls(view, "update").first?.first)
        #expect(first["title"]?.stringValue == "Rust: Topic 2")
        #expect(first["infoMessage"]?.stringValue == "Studying")
        #expect(first["percent"] == .uint32(25))
        #expect(first["processedItems"] == .uint64(1) && first["totalItems"] == .uint64(4))
        #expect(first["suspended"] == .boolean(false))

        try h.emit(view, interface: "org.kde.JobViewV3", "suspendRequested")
        #expect(await eventually { try h.store.session(id: h.session.id)?.state == .paused }, "Pause in Plasma paused the session")
        #expect(await eventually { h.calls(view, "update").last?.first?["suspended"] == .boolean(true) })
        try h.emit(view, interface: "org.kde.JobViewV3", "resumeRequested")
        #expect(await eventually { try h.store.session(id: h.session.id)?.state == .running })
        try h.emit(view, interface: "org.kde.JobViewV3", "cancelRequested")
        #expect(await eventually { try h.store.session(id: h.session.id)?.state == .stopped }, "Cancel stopped it")
        #expect(await eventually { h.calls(view, "terminate").count == 1 }, "the job was terminated")
        #expect(h.calls(view, "update").last?.first?["infoMessage"]?.stringValue == "Stopped", "after a final update")
        await h.runner?.value
        await h.finish()
    }

    @Test("An older server gets the first requestView and JobViewV2 calls")
    func jobViewV2() async throws {
        let h = try Harness(legacy: true)
        let view: DBusObjectPath = "/JobViewServer/JobView_1"
        #expect(await eventually { h.calls(view, "setPercent").count >= 1 })
        #expect(h.calls(view, "setPercent").first == [.uint32(25)])
        #expect(h.calls(view, "setInfoMessage").first == [.string("Studying")])
        #expect(h.calls(view, "setDescriptionField").contains([.uint32(0), .string("Session"), .string("Rust: Topic 2")]))
        try h.emit(view, interface: "org.kde.JobViewV2", "suspendRequested")
        #expect(await eventually { try h.store.session(id: h.session.id)?.state == .paused })
        try h.store.transition(.stop)
        #expect(await eventually { h.calls(view, "terminate").count == 1 })
        await h.finish()
    }

    @Test("A requestView refused as a flood is tried again: the job shows the current state without waiting for a change")
    func refusedViewIsRetried() async throws {
        let h = try Harness(legacy: false, refuseFirst: 1)
        let view: DBusObjectPath = "/org/kde/notificationmanager/jobs/JobView_1"
        #expect(await eventually { h.calls(view, "update").count >= 1 }, "the second request made the view")
        #expect(h.calls("/JobViewServer", "requestView").count == 2, "one refused, one granted")
        #expect(h.calls(view, "update").first?.first?["infoMessage"]?.stringValue == "Studying")
        try await Task.sleep(for: .milliseconds(400))
        #expect(h.calls("/JobViewServer", "requestView").count == 2, "one view: no more requests once it exists")
        await h.finish()
    }
}
