import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// What `gdbus introspect` sees on each object is exactly Desktop/dbus-1/interfaces/<interface>.xml.
@Suite struct IntrospectionTests {
    typealias D = DaemonFixture

    /// An interface element reduced to what a caller depends on: members, argument names, types and directions.
    static func shape(_ interface: XMLElement) -> [String] {
        var out: [String] = []
        for child in interface.children ?? [] {
            guard let element = child as? XMLElement, let kind = element.name else { continue }
            let name = element.attribute(forName: "name")?.stringValue ?? ""
            switch kind {
            case "method", "signal":
                let args = element.elements(forName: "arg").map { arg in
                    ["name", "type", "direction"].map { arg.attribute(forName: $0)?.stringValue ?? "" }.joined(separator: " ")
                }
                out.append("\(kind) \(name)(\(args.joined(separator: ", ")))")
            case "property":
                let annotations = element.elements(forName: "annotation").map {
                    "\($0.attribute(forName: "name")?.stringValue ?? "")=\($0.attribute(forName: "value")?.stringValue ?? "")"
                }
                out.append("property \(name) \(element.attribute(forName: "type")?.stringValue ?? "") "
                           + "\(element.attribute(forName: "access")?.stringValue ?? "") \(annotations.joined(separator: ","))")
            default:
                continue
            }
        }
        return out
    }

    static func interface(named name: String, in xml: String) throws -> XMLElement {
        let document = try XMLDocument(xmlString: xml, options: [])
        let root = try #require(document.rootElement())
        return try #require(root.elements(forName: "interface").first { $0.attribute(forName: "name")?.stringValue == name })
    }

    @Test(arguments: [
        (DaemonFixture.providerPath, DaemonFixture.provider),
        (DaemonFixture.runnerPath, DaemonFixture.runner),
        (DaemonFixture.appPath, DaemonFixture.app),
    ])
    func introspectionEqualsTheInterfaceFile(path: String, name: String) async throws {
        try await withDaemon(samples: false) { d in
            let out = try Run.program("/usr/bin/gdbus", ["introspect", "--session", "--xml", "--dest", D.busName, "--object-path", path],
                                      environment: d.environment)
            #expect(out.status == 0, "\(out.stderr)")
            let live = try Self.interface(named: name, in: out.stdout)
            let file = try String(contentsOfFile: D.root + "/Desktop/dbus-1/interfaces/\(name).xml", encoding: .utf8)
            let contract = try Self.interface(named: name, in: file)
            #expect(Self.shape(live) == Self.shape(contract))
            #expect(!Self.shape(contract).isEmpty)
        }
    }
}
