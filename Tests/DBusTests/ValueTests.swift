import DBus
import Testing

/// Signatures, values and conversions, without a bus.
@Suite struct ValueTests {
    @Test func signaturesSplitIntoCompleteTypes() throws {
        #expect(try DBusSignature(validating: "susssasa{sv}i").completeTypes.map(\.rawValue) == ["s", "u", "s", "s", "s", "as", "a{sv}", "i"])
        #expect(DBusSignature("a(sssida{sv})").completeTypes.map(\.rawValue) == ["a(sssida{sv})"])
        #expect(DBusSignature("a{sv}").isSingleCompleteType)
        #expect(!DBusSignature("ss").isSingleCompleteType)
        #expect(DBusSignature("s").isBasic && !DBusSignature("v").isBasic)
        let error = #expect(throws: DBusError.self) { try DBusSignature(validating: "a{vs}") }
        #expect(error?.name == DBusError.Name.invalidSignature)
        #expect(!DBusSignature("(").isValid)
        #expect(!DBusSignature(stringLiteral: String(repeating: "a", count: 40) + "s").isValid)
    }

    @Test func valuesKnowTheirSignatures() {
        let match: DBusValue = .struct(["id", "text", "icon", 100, 0.5, .vardict([:])])
        #expect(match.signature == "(sssida{sv})")
        #expect(DBusValue.array("(sssida{sv})", [match]).signature == "a(sssida{sv})")
        #expect(DBusValue.strings([]).signature == "as")
        #expect((["a": 1, "b": 2] as [String: Int32]).dbusValue.signature == "a{si}")
        #expect(["k": "v"].dbusValue.signature == "a{ss}")
        #expect(DBusValue.variant(.variant(.uint32(1))).signature == "v")
        #expect(DBusValue.signature(of: ["s", .uint32(0), .strings(["x"])]) == "suas")
    }

    @Test func swiftValuesConvertBothWays() {
        let vardict: [String: DBusValue] = ["value": .int32(42), "transient": true, "urgency": .byte(0)]
        let value = vardict.dbusValue
        #expect(value.signature == "a{sv}")
        // Entries are sorted by key, so the wire form is stable.
        #expect(value.dictionaryEntries?.map { $0.key } == ["transient", "urgency", "value"])
        #expect([String: DBusValue](dbusValue: value) == vardict)
        #expect(value["value"]?.int32Value == 42)
        #expect(Int32(dbusValue: .variant(.int32(5))) == 5)
        #expect(UInt32(dbusValue: .int32(5)) == nil)
        #expect([String](dbusValue: .strings(["a", "b"])) == ["a", "b"])
        #expect([String](dbusValue: .array("v", [.variant("a")])) == ["a"])
        #expect(Bool(dbusValue: true) == true)
        #expect(Double(dbusValue: 1.5) == 1.5)
        #expect(DBusObjectPath(dbusValue: .objectPath("/a")) == "/a")
        #expect([DBusValue]([1, "x"]).dbusValue == .array("v", [.variant(1), .variant("x")]))
    }

    @Test func objectPathsAndNamesAreChecked() throws {
        #expect(try DBusObjectPath(validating: "/org/engram/Engram").isValid)
        #expect(throws: DBusError.self) { try DBusObjectPath(validating: "/a//b") }
        #expect(!DBusObjectPath(stringLiteral: "/trailing/").isValid)
        #expect(!DBusObjectPath(stringLiteral: "relative").isValid)
        #expect(DBusObjectPath("/a").isAncestor(of: "/a/b"))
        #expect(!DBusObjectPath("/a").isAncestor(of: "/ab"))
        #expect(DBusObjectPath.root.isAncestor(of: "/a"))
        #expect(DBusNames.isValidBusName("org.engram.Engram"))
        #expect(!DBusNames.isValidBusName("engram"))
        #expect(DBusNames.isValidInterface("org.gnome.Shell.SearchProvider2"))
        #expect(DBusNames.isValidMember("GetResultMetas"))
        #expect(!DBusNames.isValidMember("Get.Result"))
        #expect(DBusNames.isValidErrorName("org.engram.Error.NotFound"))
    }

    @Test func matchRulesAreQuotedForTheBus() {
        let rule = DBusMatchRule(sender: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                                 interface: "org.freedesktop.Notifications", member: "ActionInvoked",
                                 arguments: [1: "it's"])
        #expect(rule.ruleString == "type='signal',sender='org.freedesktop.Notifications',path='/org/freedesktop/Notifications',interface='org.freedesktop.Notifications',member='ActionInvoked',arg1='it'\\''s'")
        #expect(DBusMatchRule.nameOwnerChanged("org.engram.Engram").ruleString
                == "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='org.engram.Engram'")
    }

    @Test func errorsDescribeThemselves() {
        let error = DBusError(name: DBusError.Name.noReply, message: "no reply")
        #expect(error.isTimeout)
        #expect(error.description == "org.freedesktop.DBus.Error.NoReply: no reply")
    }
}
