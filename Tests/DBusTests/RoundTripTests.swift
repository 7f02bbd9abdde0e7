import DBus
import Testing

/// Values survive a trip through a real bus, to our own client and to gdbus.
@Suite struct RoundTripTests {
    static let matches: DBusValue = .array("(sssida{sv})", [
        .struct(["mem:1", "Buy milk", "note", 100, 0.75,
                 .vardict(["subtext": "today", "urls": .strings(["engram://memory/1"])])]),
        .struct(["mem:2", "Call mum", "task", 90, 0.5, .vardict([:])]),
    ])

    static let metas: DBusValue = .vardict([
        "id": "mem:1",
        "name": "Buy milk",
        "icon": .struct(["themed", .variant(.strings(["note", "note-symbolic"]))]),
        "nested": .variant(.variant(.uint32(7))),
    ])

    @Test func everyTypeRoundTripsThroughOurClient() async throws {
        try await withTestService { service async throws in
            let cases: [(String, DBusValue)] = [
                ("EchoString", "hello, wörld ✓"),
                ("EchoStrings", .strings(["a", "", "c d"])),
                ("EchoStrings", .strings([])),
                ("EchoVardict", Self.metas),
                ("EchoMatches", Self.matches),
                ("EchoStruct", .struct(["mock-notify", "test vendor", "1.0", "1.2"])),
                ("EchoUInt32", .uint32(.max)),
                ("EchoInt32", .int32(.min)),
                ("EchoBool", true),
                ("EchoBool", false),
                ("EchoDouble", 2.5),
                ("EchoPath", .objectPath("/org/engram/Engram")),
                ("EchoVariant", .variant(.vardict(["deep": .variant(.struct([.byte(1), .int64(-2)]))]))),
            ]
            for (method, value) in cases {
                let reply = try service.call(method, [value])
                #expect(reply == [value], "\(method) changed \(value) into \(reply)")
            }
            let all: [DBusValue] = [.byte(255), true, .int16(-2), .uint16(3), .int32(-4), .uint32(5), .int64(-6),
                                    .uint64(.max), 1.25, "s", .objectPath("/o"), .signature("a{sv}"), .variant("v")]
            #expect(try service.call("EchoAll", all) == all)
        }
    }

    @Test func asyncCallReturnsTheReply() async throws {
        try await withTestService { service async throws in
            let reply = try await service.client.call(destination: TestInterface.busName, path: TestInterface.path,
                                                      interface: TestInterface.name, method: "EchoMatches",
                                                      arguments: [Self.matches])
            #expect(reply == [Self.matches])
        }
    }

    @Test func typedConversionsReadNaturally() async throws {
        try await withTestService { service async throws in
            let reply = try service.call("EchoVardict", [Self.metas])
            let metas = try #require(reply.first?.dictionaryValue)
            #expect(metas["id"]?.stringValue == "mem:1")
            #expect(metas["icon"]?[1]?.stringArrayValue == ["note", "note-symbolic"])
            #expect(reply.first?["name"]?.stringValue == "Buy milk")
            let strings = try service.call("EchoStrings", [["x", "y"].dbusValue])
            #expect([String](dbusValue: strings[0]) == ["x", "y"])
        }
    }

    /// gdbus parses its arguments against our introspection data and prints the reply as GVariant text.
    @Test(arguments: [
        ("EchoString", "'hello'", "('hello',)"),
        ("EchoStrings", "['a', 'b c']", "(['a', 'b c'],)"),
        ("EchoVardict", "{'id': <'mem:1'>, 'n': <<int32 5>>}", "({'id': <'mem:1'>, 'n': <<5>>},)"),
        ("EchoMatches", "[('mem:1', 'Buy milk', 'note', 100, 0.75, {'subtext': <'today'>})]",
         "([('mem:1', 'Buy milk', 'note', 100, 0.75, {'subtext': <'today'>})],)"),
        ("EchoStruct", "('mock-notify', 'test vendor', '1.0', '1.2')",
         "(('mock-notify', 'test vendor', '1.0', '1.2'),)"),
        ("EchoUInt32", "4294967295", "(uint32 4294967295,)"),
        ("EchoInt32", "-7", "(-7,)"),
        ("EchoBool", "true", "(true,)"),
        ("EchoDouble", "2.5", "(2.5,)"),
        ("EchoPath", "'/org/engram/Engram'", "(objectpath '/org/engram/Engram',)"),
    ])
    func gdbusCallsEveryType(method: String, argument: String, expected: String) async throws {
        try await withTestService { service async throws in
            let output = try await service.gdbusCall(method, [argument])
            #expect(output.status == 0, "gdbus failed: \(output.stderr)")
            #expect(output.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == expected)
        }
    }

    @Test func ourDescriptionMatchesGVariantText() {
        #expect(Self.metas.description == "{'icon': <('themed', <['note', 'note-symbolic']>)>, 'id': <'mem:1'>, 'name': <'Buy milk'>, 'nested': <<<uint32 7>>>}")
        #expect(DBusValue.uint32(4).description == "uint32 4")
        #expect(DBusValue.strings([]).description == "@as []")
    }
}
