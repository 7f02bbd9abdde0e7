import DBus
import EngramTestSupport
import Foundation
import Testing
@testable import Notifier

@Suite(.serialized) struct NotificationCloserTests {
    @Test("The detached closer takes the notification down on time, but never one from another server instance")
    func closesOnlyOnTheSameServer() async throws {
        let bus = try PrivateBus()
        let daemon = try MockNotificationDaemon(bus: bus, capabilities: "body")
        let connection = try bus.connect()
        let owner = try connection.nameOwner(DBusNotificationServer.busName)

        let started = ContinuousClock.now
        await NotificationCloser.close(NotificationHandOff(id: 7, serverOwner: owner), after: .milliseconds(400), connection: connection)
        #expect(ContinuousClock.now - started >= .milliseconds(400))
        #expect(try daemon.calls("CloseNotification").map { $0.first?.integerValue } == [7])

        await NotificationCloser.close(NotificationHandOff(id: 8, serverOwner: ":1.999"), after: .milliseconds(50), connection: connection)
        try await Task.sleep(for: .milliseconds(200))
        #expect(try daemon.callCount("CloseNotification") == 1, "id 8 belongs to a server that is gone")
        daemon.stop()
        connection.close()
        bus.stop()
    }
}
