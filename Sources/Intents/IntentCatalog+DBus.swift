import Foundation

extension IntentDefinition {
    /// The D-Bus input signature of this intent's method on `org.engram.Engram1`, one argument per parameter in
    /// catalog order (e.g. QueryMemory: `sib`); every method returns `(s sentence, s json)`.
    public var dbusInSignature: String { parameters.map(\.kind.dbusSignature).joined() }

    /// The `<method>` element for the interface XML.
    public var dbusMethodXML: String {
        var lines = ["    <method name=\"\(name.rawValue)\">"]
        for p in parameters {
            lines.append("      <arg name=\"\(p.name)\" type=\"\(p.kind.dbusSignature)\" direction=\"in\"/>")
        }
        lines.append("      <arg name=\"sentence\" type=\"s\" direction=\"out\"/>")
        lines.append("      <arg name=\"result\" type=\"s\" direction=\"out\"/>")
        lines.append("    </method>")
        return lines.joined(separator: "\n")
    }

    /// An invocation from D-Bus arguments given as text in parameter order; an empty string or a negative
    /// number means "use the default".
    public func invocation(dbusArguments values: [String]) -> IntentInvocation {
        var args: [String: String] = [:]
        for (p, v) in zip(parameters, values) where !v.isEmpty && !(p.kind == .integer && v.hasPrefix("-")) {
            args[p.name] = v
        }
        return IntentInvocation(name, args)
    }
}

extension IntentCatalog {
    /// The intent methods of `org.engram.Engram1` plus `Perform(s phrase) → (s sentence, s json)`, as interface XML.
    public static var dbusMethodsXML: String {
        (["    <method name=\"Perform\">", "      <arg name=\"phrase\" type=\"s\" direction=\"in\"/>",
          "      <arg name=\"sentence\" type=\"s\" direction=\"out\"/>", "      <arg name=\"result\" type=\"s\" direction=\"out\"/>",
          "    </method>"] + all.map(\.dbusMethodXML)).joined(separator: "\n") + "\n"
    }
}
