import DBus
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// `gdbus introspect` sees exactly what the interface table declares.
@Suite struct IntrospectionTests {
    /// One `<arg>` as (name, type, direction).
    struct Arg: Equatable, CustomStringConvertible {
        let name: String, type: String, direction: String
        var description: String { "\(direction) \(type) \(name)" }
    }

    static func args(_ element: XMLElement) -> [Arg] {
        element.elements(forName: "arg").map {
            Arg(name: $0.attribute(forName: "name")?.stringValue ?? "",
                type: $0.attribute(forName: "type")?.stringValue ?? "",
                direction: $0.attribute(forName: "direction")?.stringValue ?? "")
        }
    }

    static func introspect(_ service: TestService, path: String) async throws -> XMLElement {
        let output = try await service.bus.run("/usr/bin/gdbus", ["introspect", "--session", "--xml",
                                                            "--dest", TestInterface.busName, "--object-path", path])
        #expect(output.status == 0, "gdbus introspect failed: \(output.stderr)")
        let document = try XMLDocument(xmlString: output.stdout, options: [])
        return try #require(document.rootElement())
    }

    @Test func gdbusIntrospectionMatchesTheTable() async throws {
        try await withTestService { service async throws in
            let root = try await Self.introspect(service, path: TestInterface.path.rawValue)
            let interfaces = root.elements(forName: "interface")
            let names = interfaces.compactMap { $0.attribute(forName: "name")?.stringValue }
            #expect(names == ["org.freedesktop.DBus.Peer", "org.freedesktop.DBus.Introspectable",
                              "org.freedesktop.DBus.Properties", TestInterface.name])
            let table = TestInterface.make(properties: PropertyState())
            let xml = try #require(interfaces.first { $0.attribute(forName: "name")?.stringValue == TestInterface.name })

            let methods = xml.elements(forName: "method")
            #expect(methods.compactMap { $0.attribute(forName: "name")?.stringValue } == table.methods.map(\.name))
            for (element, method) in zip(methods, table.methods) {
                let expected = method.inArguments.map { Arg(name: $0.name, type: $0.signature.rawValue, direction: "in") }
                    + method.outArguments.map { Arg(name: $0.name, type: $0.signature.rawValue, direction: "out") }
                #expect(Self.args(element) == expected, "arguments of \(method.name)")
            }

            let properties = xml.elements(forName: "property").map {
                [$0.attribute(forName: "name")?.stringValue ?? "", $0.attribute(forName: "type")?.stringValue ?? "",
                 $0.attribute(forName: "access")?.stringValue ?? ""]
            }
            #expect(properties == [["Name", "s", "readwrite"], ["Count", "u", "read"],
                                   ["Secret", "s", "readwrite"], ["Broken", "s", "read"]])
            let secret = try #require(xml.elements(forName: "property").first { $0.attribute(forName: "name")?.stringValue == "Secret" })
            #expect(secret.elements(forName: "annotation").first?.attribute(forName: "value")?.stringValue == "invalidates")

            let signals = xml.elements(forName: "signal")
            #expect(signals.compactMap { $0.attribute(forName: "name")?.stringValue } == ["Changed", "Ping"])
            #expect(Self.args(signals[0]) == [Arg(name: "what", type: "s", direction: ""), Arg(name: "count", type: "u", direction: "")])

            let children = root.elements(forName: "node").compactMap { $0.attribute(forName: "name")?.stringValue }
            #expect(children == ["child"])
        }
    }

    @Test func parentNodesListTheirChildren() async throws {
        try await withTestService { service async throws in
            let root = try await Self.introspect(service, path: "/com/example")
            #expect(root.elements(forName: "interface").isEmpty)
            #expect(root.elements(forName: "node").compactMap { $0.attribute(forName: "name")?.stringValue } == ["EngramTest"])
            let top = try await Self.introspect(service, path: "/")
            #expect(top.elements(forName: "node").compactMap { $0.attribute(forName: "name")?.stringValue } == ["com"])
        }
    }

    @Test func oneObjectCanServeSeveralInterfaces() async throws {
        try await withTestService { service async throws in
            try service.server.export([
                DBusInterface("com.example.First", methods: [DBusMethod("Which", out: "s") { _ in ["first"] }]),
                DBusInterface("com.example.Second", methods: [DBusMethod("Which", out: "s") { _ in ["second"] }]),
            ], at: "/multi")
            #expect(try service.call("Which", interface: "com.example.First", path: "/multi") == ["first"])
            #expect(try service.call("Which", interface: "com.example.Second", path: "/multi") == ["second"])
            let root = try await Self.introspect(service, path: "/multi")
            let names = root.elements(forName: "interface").compactMap { $0.attribute(forName: "name")?.stringValue }
            #expect(names.suffix(2) == ["com.example.First", "com.example.Second"])
        }
    }

    @Test func peerPingAnswersOnAnyExportedObject() async throws {
        try await withTestService { service async throws in
            let reply = try service.call("Ping", interface: "org.freedesktop.DBus.Peer")
            #expect(reply.isEmpty)
            let id = try service.call("GetMachineId", interface: "org.freedesktop.DBus.Peer")
            #expect(id.first?.stringValue?.count == 32)
        }
    }
}
