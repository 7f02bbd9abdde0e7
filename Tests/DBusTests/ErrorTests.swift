import DBus
import EngramTestSupport
import Testing

/// Bad calls get the right error replies, and the service keeps answering afterwards.
@Suite struct ErrorTests {
    @Test func wrongSignatureIsInvalidArgsNamingBothSignatures() async throws {
        try await withTestService { service async throws in
            let error = #expect(throws: DBusError.self) { try service.call("EchoString", [.uint32(5)]) }
            #expect(error?.name == DBusError.Name.invalidArgs)
            #expect(error?.message == "com.example.EngramTest.EchoString expects arguments of type 's' but received 'u'")
            #expect(try service.call("EchoString", ["still here"]) == ["still here"])
        }
    }

    @Test func unknownMethodInterfaceAndObjectEachGetTheirError() async throws {
        try await withTestService { service async throws in
            let method = #expect(throws: DBusError.self) { try service.call("NoSuchMethod") }
            #expect(method?.name == DBusError.Name.unknownMethod)
            let interface = #expect(throws: DBusError.self) { try service.call("EchoString", ["x"], interface: "com.example.Nope") }
            #expect(interface?.name == DBusError.Name.unknownInterface)
            let object = #expect(throws: DBusError.self) { try service.call("EchoString", ["x"], path: "/com/example/Nowhere") }
            #expect(object?.name == DBusError.Name.unknownObject)
            #expect(object?.message.contains("/com/example/Nowhere") == true)
            #expect(try service.call("EchoUInt32", [.uint32(9)]) == [.uint32(9)])
        }
    }

    @Test func gdbusSeesTheSameErrors() async throws {
        try await withTestService { service async throws in
            let output = try await service.gdbusCall("NoSuchMethod")
            #expect(output.status != 0)
            #expect(output.stderr.contains("org.freedesktop.DBus.Error.UnknownMethod"))
            #expect(try await service.gdbusCall("EchoString", ["'ok'"]).stdout.contains("('ok',)"))
        }
    }

    @Test func throwingHandlersReplyWithTheirError() async throws {
        try await withTestService { service async throws in
            let custom = #expect(throws: DBusError.self) { try service.call("Fail") }
            #expect(custom == DBusError(name: "com.example.EngramTest.Error.Custom", message: "asked to fail"))
            let plain = #expect(throws: DBusError.self) { try service.call("FailPlainly") }
            #expect(plain?.name == DBusError.Name.failed)
            #expect(plain?.message == "a plain Swift error")
            let wrong = #expect(throws: DBusError.self) { try service.call("WrongReply") }
            #expect(wrong?.message.contains("reply of type 'u' but declares 's'") == true)
            #expect(try service.call("EchoBool", [true]) == [true])
        }
    }

    @Test func aHundredThousandElementArrayIsHandled() async throws {
        try await withTestService { service async throws in
            let items = (0..<100_000).map { "item \($0)" }
            let count = try await onThread { try service.call("Count", [items.dbusValue], timeout: .seconds(60)) }
            #expect(count == [.uint32(100_000)])
            let echoed = try await onThread { try service.call("EchoStrings", [items.dbusValue], timeout: .seconds(60)) }
            #expect(echoed.first?.stringArrayValue == items)
        }
    }

    @Test func anArrayBeyondTheDecodeBudgetIsRefusedNotAllocated() async throws {
        try await withTestService { service async throws in
            let error = try await onThread { () -> DBusError? in
                let bytes = DBusValue.array("y", Array(repeating: .byte(0), count: 5_000_000))
                do {
                    _ = try service.call("CountBytes", [bytes], timeout: .seconds(60))
                    return nil
                } catch let error as DBusError {
                    return error
                }
            }
            #expect(error?.name == DBusError.Name.invalidArgs)
            #expect(error?.message.contains("more than") == true)
            #expect(try service.call("CountBytes", [.array("y", [.byte(1), .byte(2)])]) == [.uint32(2)])
        }
    }

    static func nested(_ depth: Int) -> DBusValue {
        var value: DBusValue = .int32(1)
        for _ in 0..<depth { value = .variant(value) }
        return value
    }

    @Test func deeplyNestedVariantsAreHandledUpToTheLimitAndRefusedBeyondIt() async throws {
        try await withTestService { service async throws in
            // The bus accepts 64 levels of nesting in a message body; the outermost variant is the argument.
            #expect(try service.call("Depth", [Self.nested(64)]) == [.uint32(64)])
            let tooDeep = #expect(throws: DBusError.self) { try service.call("Depth", [Self.nested(65)]) }
            #expect(tooDeep?.name == DBusError.Name.invalidArgs)
            let wayTooDeep = #expect(throws: DBusError.self) { try service.call("Depth", [Self.nested(10_000)]) }
            #expect(wayTooDeep?.name == DBusError.Name.invalidArgs)
            #expect(service.client.isConnected)
            // gdbus sending something deeper than the bus allows never reaches us, and does not hurt us.
            let deep = String(repeating: "<", count: 100) + "1" + String(repeating: ">", count: 100)
            let output = try await service.gdbusCall("Depth", [deep])
            #expect(output.status != 0)
            #expect(try service.call("Depth", [Self.nested(3)]) == [.uint32(3)])
        }
    }

    @Test func valuesThatLibdbusWouldAbortOnAreRefusedBeforeSending() async throws {
        try await withTestService { service async throws in
            let cases: [DBusValue] = [
                .string("nul \0 inside"),
                .objectPath("not/a/path"),
                .signature("a{"),
                .array("s", [.uint32(1)]),
                .dictionary(key: "v", value: "s", []),
                .struct([]),
            ]
            for value in cases {
                #expect(throws: DBusError.self, "\(value) should be refused") {
                    try service.client.call(destination: TestInterface.busName, path: TestInterface.path,
                                            interface: TestInterface.name, method: "EchoVariant", arguments: [.variant(value)])
                }
            }
            #expect(throws: DBusError.self) {
                try service.client.call(destination: "not a name", path: "/", interface: "a.b", method: "C")
            }
            #expect(throws: DBusError.self) {
                try service.client.call(destination: TestInterface.busName, path: "/", interface: "a.b", method: "no-dashes")
            }
            #expect(try service.call("EchoString", ["fine"]) == ["fine"])
        }
    }
}
