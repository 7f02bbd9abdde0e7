import DBus
import EngramTestSupport
import Foundation
import Glibc
import Testing

/// Losing the bus is reported, not fatal; closing is clean.
@Suite struct DisconnectTests {
    @Test func killingTheBusIsReportedAndTheProcessLives() async throws {
        let bus = try await PrivateBus.start()
        defer { bus.stop() }
        let server = try bus.connect()
        let client = try bus.connect()
        try server.export(DBusInterface("com.example.Sink", methods: [
            DBusMethod("Never", deferredHandler: { _, reply in TestInterface.parked.withLock { $0.append(reply) } }),
        ]), at: "/sink")
        let lost = Collector<String>()
        client.onDisconnect { lost.append("lost") }

        // A call in flight when the bus dies must fail, not hang.
        let inFlight = Task.detached {
            try client.call(destination: server.uniqueName, path: "/sink", interface: "com.example.Sink",
                            method: "Never", timeout: .seconds(60))
        }
        try await Task.sleep(for: .milliseconds(200))
        kill(bus.pid, SIGKILL)

        #expect(await eventually { lost.all == ["lost"] })
        #expect(!client.isConnected)
        let error = await #expect(throws: DBusError.self) { try await inFlight.value }
        #expect(error?.name == DBusError.Name.disconnected)
        await client.waitUntilClosed()
        let after = #expect(throws: DBusError.self) {
            try client.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                            interface: "org.freedesktop.DBus", method: "GetId")
        }
        #expect(after?.name == DBusError.Name.disconnected)
        await server.waitUntilClosed()
        client.close()
        server.close()
    }

    @Test func closeIsCleanAndIdempotent() async throws {
        let bus = try await PrivateBus.start()
        defer { bus.stop() }
        let connection = try bus.connect()
        let lost = Collector<String>()
        connection.onDisconnect { lost.append("lost") }
        #expect(connection.isConnected)
        connection.close()
        connection.close()
        #expect(!connection.isConnected)
        await connection.waitUntilClosed()
        #expect(throws: DBusError.self) { try connection.requestName("com.example.Closed") }
        #expect(lost.all.isEmpty, "closing on purpose is not a lost bus")
    }

    @Test func droppingTheLastReferenceClosesTheConnection() async throws {
        let bus = try await PrivateBus.start()
        defer { bus.stop() }
        let watcher = try bus.connect()
        defer { watcher.close() }
        do {
            let scoped = try bus.connect()
            #expect(try scoped.requestName("com.example.Scoped") == .primaryOwner)
        }
        #expect(await eventually { (try? watcher.nameOwner("com.example.Scoped")) == .some(nil) })
    }

    @Test func theSessionBusComesFromTheEnvironment() async throws {
        let bus = try await PrivateBus.start()
        defer { bus.stop() }
        let previous = getenv("DBUS_SESSION_BUS_ADDRESS").map { String(cString: $0) }
        setenv("DBUS_SESSION_BUS_ADDRESS", bus.address, 1)
        defer {
            if let previous { setenv("DBUS_SESSION_BUS_ADDRESS", previous, 1) } else { unsetenv("DBUS_SESSION_BUS_ADDRESS") }
        }
        let session = try DBusConnection(bus: .session)
        defer { session.close() }
        #expect(try session.requestName("com.example.FromEnvironment") == .primaryOwner)
        let other = try bus.connect()
        defer { other.close() }
        #expect(try other.nameOwner("com.example.FromEnvironment") == session.uniqueName)
    }

    @Test func aBadAddressSaysWhatWentWrong() {
        let error = #expect(throws: DBusError.self) { try DBusConnection(address: "unix:path=/nonexistent/engram-bus") }
        #expect(error?.message.contains("/nonexistent/engram-bus") == true)
    }
}
