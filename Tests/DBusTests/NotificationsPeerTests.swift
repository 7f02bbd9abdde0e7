import DBus
import EngramTestSupport
import Testing

/// The layer carries org.freedesktop.Notifications against python-dbusmock's notification daemon.
@Suite struct NotificationsPeerTests {
    static let name = "org.freedesktop.Notifications"
    static let path: DBusObjectPath = "/org/freedesktop/Notifications"

    @Test func notifyActionInvokedAndNotificationClosedWithAMockDaemon() async throws {
        let bus = try await PrivateBus.start()
        defer { bus.stop() }
        try bus.spawn("/usr/bin/python3", ["-m", "dbusmock", "--template", "notification_daemon"])
        let client = try bus.connect()
        defer { client.close() }
        #expect(await eventually(timeout: .seconds(20)) { (try? client.nameOwner(Self.name)) != nil })

        let info = try await client.call(destination: Self.name, path: Self.path, interface: Self.name,
                                         method: "GetServerInformation")
        #expect(info.compactMap(\.stringValue) == ["mock-notify", "test vendor", "1.0", "1.1"])

        let hints: [String: DBusValue] = ["value": .int32(42), "urgency": .byte(0), "transient": true]
        let reply = try await client.call(destination: Self.name, path: Self.path, interface: Self.name, method: "Notify",
                                          arguments: ["engram", .uint32(0), "", "Capture session", "3 of 10",
                                                      .strings(["stop", "Stop"]), hints.dbusValue, .int32(-1)])
        let id = try #require(reply.first?.uint32Value)
        #expect(id > 0)

        let events = Collector<DBusSignalEvent>()
        try client.addMatch(DBusMatchRule(sender: Self.name, interface: Self.name, member: "ActionInvoked")) { events.append($0) }
        try client.addMatch(DBusMatchRule(sender: Self.name, interface: Self.name, member: "NotificationClosed")) { events.append($0) }

        _ = try await client.call(destination: Self.name, path: Self.path, interface: "org.freedesktop.DBus.Mock",
                                  method: "EmitSignal",
                                  arguments: [.string(Self.name), "ActionInvoked", "us",
                                              .array("v", [.variant(.uint32(id)), .variant("stop")])])
        _ = try await client.call(destination: Self.name, path: Self.path, interface: Self.name,
                                  method: "CloseNotification", arguments: [.uint32(id)])
        #expect(await eventually { events.all.count == 2 })
        #expect(events.all.map(\.member) == ["ActionInvoked", "NotificationClosed"])
        #expect(events.all.first?.arguments == [.uint32(id), "stop"])
        #expect(events.all.last?.arguments.first == .uint32(id))
    }
}
