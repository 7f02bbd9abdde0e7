import DBus
import Testing

/// Properties are served through org.freedesktop.DBus.Properties and changes are announced.
@Suite struct PropertiesTests {
    static let properties = "org.freedesktop.DBus.Properties"

    @Test func getAndGetAllReadTheGetters() async throws {
        try await withTestService { service async throws in
            let name = try service.call("Get", [.string(TestInterface.name), "Name"], interface: Self.properties)
            #expect(name == [.variant("initial")])
            let all = try #require(try service.call("GetAll", [.string(TestInterface.name)], interface: Self.properties)
                .first?.dictionaryValue)
            #expect(all == ["Name": "initial", "Count": .uint32(3), "Secret": "hidden"])
            let gdbus = try await service.gdbusCall("Get", ["'\(TestInterface.name)'", "'Count'"], interface: Self.properties)
            #expect(gdbus.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "(<uint32 3>,)")
        }
    }

    /// A widget's GetAll of properties computed from one costly read (the daemon's glance: a store query) makes that
    /// read once, and every call reads afresh.
    @Test func getAllSharesOneReadAmongItsGettersAndEachCallReadsAfresh() async throws {
        try await withTestService { service async throws in
            let reads = Collector<Int>()
            let snapshot: @Sendable () -> (first: UInt32, second: UInt32) = {
                DBusPropertyRead.shared("snapshot") {
                    reads.append(1)
                    let n = UInt32(reads.all.count)
                    return (n * 10 + 1, n * 10 + 2)
                }
            }
            let name = "com.example.EngramTest.Snapshot", path: DBusObjectPath = "/com/example/EngramTest/snapshot"
            try service.server.export(DBusInterface(name, properties: [
                DBusProperty("First", "u", get: { .uint32(snapshot().first) }),
                DBusProperty("Second", "u", get: { .uint32(snapshot().second) }),
            ]), at: path)
            let all = try service.call("GetAll", [.string(name)], interface: Self.properties, path: path).first?.dictionaryValue
            #expect(all == ["First": .uint32(11), "Second": .uint32(12)])
            #expect(reads.all.count == 1)
            let again = try service.call("GetAll", [.string(name)], interface: Self.properties, path: path).first?.dictionaryValue
            #expect(again == ["First": .uint32(21), "Second": .uint32(22)])
            #expect(try service.call("Get", [.string(name), "Second"], interface: Self.properties, path: path) == [.variant(.uint32(32))])
            #expect(reads.all.count == 3)
            #expect(snapshot().first == 41, "outside a call, each getter reads")
        }
    }

    @Test func setFromGdbusChangesTheValueAndEmitsPropertiesChanged() async throws {
        try await withTestService { service async throws in
            let seen = Collector<DBusSignalEvent>()
            let subscription = try service.client.addMatch(
                DBusMatchRule(sender: TestInterface.busName, path: TestInterface.path,
                              interface: Self.properties, member: "PropertiesChanged")) { seen.append($0) }
            defer { subscription.cancel() }

            let output = try await service.gdbusCall("Set", ["'\(TestInterface.name)'", "'Name'", "<'renamed'>"],
                                               interface: Self.properties)
            #expect(output.status == 0, "gdbus Set failed: \(output.stderr)")
            #expect(service.properties.name == "renamed")
            #expect(try service.call("Get", [.string(TestInterface.name), "Name"], interface: Self.properties) == [.variant("renamed")])

            #expect(await eventually { !seen.all.isEmpty })
            let event = try #require(seen.all.first)
            #expect(event.arguments == [.string(TestInterface.name), .vardict(["Name": "renamed"]), .strings([])])
        }
    }

    @Test func invalidatingPropertiesAreListedWithoutValues() async throws {
        try await withTestService { service async throws in
            let stream = try service.client.signals(matching: DBusMatchRule(interface: Self.properties, member: "PropertiesChanged"))
            _ = try service.call("Set", [.string(TestInterface.name), "Secret", .variant("x")], interface: Self.properties)
            var iterator = stream.makeAsyncIterator()
            let event = await iterator.next()
            #expect(event?.arguments == [.string(TestInterface.name), .vardict([:]), .strings(["Secret"])])
        }
    }

    @Test func serverSideChangesCanBeAnnounced() async throws {
        try await withTestService { service async throws in
            let seen = Collector<DBusSignalEvent>()
            try service.client.addMatch(DBusMatchRule(member: "PropertiesChanged")) { seen.append($0) }
            service.properties.count = 42
            try service.server.emitPropertiesChanged(path: TestInterface.path, interface: TestInterface.name,
                                                     properties: ["Count"])
            #expect(await eventually { !seen.all.isEmpty })
            #expect(seen.all.first?.arguments[1] == .vardict(["Count": .uint32(42)]))
        }
    }

    @Test func badSetsAreRefusedWithTheRightErrors() async throws {
        try await withTestService { service async throws in
            let readOnly = #expect(throws: DBusError.self) {
                try service.call("Set", [.string(TestInterface.name), "Count", .variant(.uint32(1))], interface: Self.properties)
            }
            #expect(readOnly?.name == DBusError.Name.propertyReadOnly)
            let wrongType = #expect(throws: DBusError.self) {
                try service.call("Set", [.string(TestInterface.name), "Name", .variant(5)], interface: Self.properties)
            }
            #expect(wrongType?.name == DBusError.Name.invalidArgs)
            #expect(wrongType?.message.contains("'s'") == true && wrongType?.message.contains("'i'") == true)
            let unknown = #expect(throws: DBusError.self) {
                try service.call("Get", [.string(TestInterface.name), "Nope"], interface: Self.properties)
            }
            #expect(unknown?.name == DBusError.Name.unknownProperty)
            let broken = #expect(throws: DBusError.self) {
                try service.call("Get", [.string(TestInterface.name), "Broken"], interface: Self.properties)
            }
            #expect(broken?.message == "the getter broke")
            #expect(service.properties.count == 3)
        }
    }
}
