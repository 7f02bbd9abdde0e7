import DBus
import EngramTestSupport
import Foundation
@testable import Notifier

/// python-dbusmock's `notification_daemon` template on a private bus: a notification server whose calls
/// can be read back and through which the person's clicks and dismissals can be played.
final class MockNotificationDaemon: @unchecked Sendable {
    static let python = "/usr/bin/python3"
    let bus: PrivateBus
    let process: ChildProcess
    /// A connection of the test's own, for reading calls back and emitting signals.
    let probe: DBusConnection

    /// Starts the mock with `capabilities` (space-separated; nil for the template's defaults) and waits until it owns
    /// the name; `serverName` makes `GetServerInformation` answer as that server (e.g. `gnome-shell`).
    init(bus: PrivateBus, capabilities: String?, serverName: String? = nil) throws {
        self.bus = bus
        var arguments = ["-m", "dbusmock", "--template", "notification_daemon"]
        if let capabilities { arguments += ["-p", #"{"capabilities": "\#(capabilities)"}"#] }
        process = try bus.spawn(Self.python, arguments)
        probe = try bus.connect()
        try waitForOwner()
        if let serverName {
            _ = try mock("AddMethod", [.string(DBusNotificationServer.interface), .string("GetServerInformation"),
                                       .string(""), .string("ssss"),
                                       .string("ret = ('\(serverName)', 'test', '1.0', '1.2')")])
        }
    }

    deinit { stop() }

    private func waitForOwner() throws {
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if (try? probe.nameOwner(DBusNotificationServer.busName)) != nil { return }
            guard process.isRunning else { throw TestError("dbusmock exited with \(process.exitCode)") }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw TestError("dbusmock did not take \(DBusNotificationServer.busName) within 15 s")
    }

    /// Calls a method of the mock's `org.freedesktop.DBus.Mock` interface.
    @discardableResult
    func mock(_ method: String, _ arguments: [DBusValue] = []) throws -> [DBusValue] {
        try probe.call(destination: DBusNotificationServer.busName, path: DBusNotificationServer.path,
                       interface: "org.freedesktop.DBus.Mock", method: method, arguments: arguments, timeout: .seconds(10))
    }

    /// Makes the next `times` Notify calls fail with an error (as a server that refuses or breaks would),
    /// numbering the others as the template does.
    func failNotify(times: Int) throws {
        try mock("AddMethod", [.string(DBusNotificationServer.interface), .string("Notify"), .string("susssasa{sv}i"), .string("u"),
                               .string("""
                                   if getattr(self, 'fail_notify', 0) > 0:
                                       self.fail_notify -= 1
                                       raise dbus.exceptions.DBusException('refused for the test', name='org.freedesktop.DBus.Error.Failed')
                                   if args[1]:
                                       ret = args[1]
                                   else:
                                       ret = self.next_id
                                       self.next_id += 1
                                   """)])
        try mock("AddMethod", [.string("org.engram.Test"), .string("FailNotify"), .string("u"), .string(""),
                               .string("self.fail_notify = args[0]")])
        _ = try probe.call(destination: DBusNotificationServer.busName, path: DBusNotificationServer.path,
                           interface: "org.engram.Test", method: "FailNotify", arguments: [.uint32(UInt32(times))], timeout: .seconds(10))
    }

    /// Every `Notify` the server received, decoded.
    func notifications() throws -> [NotificationRequest] {
        let reply = try mock("GetMethodCalls", [.string("Notify")])
        return (reply.first?.arrayValue ?? []).compactMap { call in
            guard let args = call[1]?.arrayValue, args.count == 8 else { return nil }
            let a = args.map(\.unwrapped)
            let actionList = a[5].stringArrayValue ?? []
            var actions: [NotificationAction] = []
            var i = 0
            while i + 1 < actionList.count { actions.append(NotificationAction(key: actionList[i], label: actionList[i + 1])); i += 2 }
            var hints: [String: DBusValue] = [:]
            for entry in a[6].dictionaryEntries ?? [] {
                if let key = entry.key.stringValue { hints[key] = entry.value.variantValue ?? entry.value }
            }
            return NotificationRequest(appName: a[0].stringValue ?? "", replacesID: a[1].uint32Value ?? 0,
                                       appIcon: a[2].stringValue ?? "", summary: a[3].stringValue ?? "",
                                       body: a[4].stringValue ?? "", actions: actions, hints: hints,
                                       expireTimeout: a[7].int32Value ?? 0)
        }
    }

    /// How many times `method` was called.
    func callCount(_ method: String) throws -> Int {
        try mock("GetMethodCalls", [.string(method)]).first?.arrayValue?.count ?? 0
    }

    /// The arguments of every call to `method`.
    func calls(_ method: String) throws -> [[DBusValue]] {
        try (mock("GetMethodCalls", [.string(method)]).first?.arrayValue ?? []).map { ($0[1]?.arrayValue ?? []).map(\.unwrapped) }
    }

    /// Emits one of the server's signals, as if the server sent it.
    func emit(_ name: String, _ signature: String, _ arguments: [DBusValue]) throws {
        try mock("EmitSignal", [.string(""), .string(name), .string(signature), .array("v", arguments.map { .variant($0) })])
    }

    /// The person pressed a button (`ActivationToken` first when a token is given).
    func invoke(id: UInt32, key: String, token: String? = nil) throws {
        if let token { try emit("ActivationToken", "us", [.uint32(id), .string(token)]) }
        try emit("ActionInvoked", "us", [.uint32(id), .string(key)])
    }

    /// The notification closed for `reason` (2: dismissed by the person).
    func close(id: UInt32, reason: UInt32) throws {
        try emit("NotificationClosed", "uu", [.uint32(id), .uint32(reason)])
    }

    /// Kills the server as a crash would and waits until the bus has seen it go.
    func kill() throws {
        process.kill()
        let deadline = Date().addingTimeInterval(10)
        while (try? probe.nameOwner(DBusNotificationServer.busName)) != nil, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Stops the mock and closes the probe connection.
    func stop() {
        process.kill()
        probe.close()
    }
}

/// Polls `condition` until it holds or `timeout` passes; returns whether it held.
func eventually(timeout: Double = 5, _ condition: () async throws -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if (try? await condition()) == true { return true }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return (try? await condition()) == true
}
