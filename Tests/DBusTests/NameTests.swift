import DBus
import EngramTestSupport
import Testing

/// Well-known names: the first owner wins, a second requester is told the name exists.
@Suite struct NameTests {
    @Test func secondOwnerGetsExistsUntilTheFirstReleases() async throws {
        let bus = try await PrivateBus.start()
        defer { bus.stop() }
        let first = try bus.connect()
        let second = try bus.connect()
        defer { first.close(); second.close() }

        #expect(try first.requestName("org.engram.Engram") == .primaryOwner)
        #expect(try first.requestName("org.engram.Engram") == .alreadyOwner)
        #expect(try second.requestName("org.engram.Engram") == .exists)
        #expect(try second.nameOwner("org.engram.Engram") == first.uniqueName)

        #expect(try first.releaseName("org.engram.Engram") == .released)
        #expect(try first.releaseName("org.engram.Engram") == .nonExistent)
        #expect(try second.nameOwner("org.engram.Engram") == nil)
        #expect(try second.requestName("org.engram.Engram") == .primaryOwner)
        #expect(try first.releaseName("org.engram.Engram") == .notOwner)
    }

    @Test func queueingWhenAskedHandsTheNameOver() async throws {
        let bus = try await PrivateBus.start()
        defer { bus.stop() }
        let first = try bus.connect()
        let second = try bus.connect()
        defer { second.close() }
        #expect(try first.requestName("org.engram.Queue") == .primaryOwner)
        #expect(try second.requestName("org.engram.Queue", flags: []) == .inQueue)
        first.close()
        #expect(await eventually { (try? second.nameOwner("org.engram.Queue")) == second.uniqueName })
    }

    @Test func testChildrenInheritNoStrayDescriptors() {
        #expect(ChildProcess.closesInheritedDescriptors)
    }

    @Test func invalidNamesAreRefused() async throws {
        let bus = try await PrivateBus.start()
        defer { bus.stop() }
        let connection = try bus.connect()
        defer { connection.close() }
        #expect(throws: DBusError.self) { try connection.requestName("no dots") }
        #expect(throws: DBusError.self) { try connection.requestName(":1.5") }
        #expect(connection.uniqueName.hasPrefix(":"))
    }
}
