import Foundation

extension IntentDefinition {
    /// The D-Bus input signature of this intent's method on `org.engram.Engram1`, one argument per parameter in
    /// catalog order (e.g. QueryMemory: `sib`); every method returns `(s sentence, s json)`.
    public var dbusInSignature: String { parameters.map(\.kind.dbusSignature).joined() }

    /// The `<method>` element for the interface XML.
    public var dbusMethodXML: String {
        let params = parameters.map { p -> String in
            let fallback = switch (p.kind, p.defaultValue) {
            case (_, nil): ""
            case (.integer, let d?): " (negative = \(d))"
            case (.boolean, let d?): " (usually \(d))"
            case (_, let d?): d.isEmpty ? " (\"\" = none)" : " (\"\" = \(d))"
            }
            return "\(p.name): \(p.summary)\(fallback)"
        }
        var lines = ["    <!-- \(Self.xmlComment(([summary] + params).joined(separator: " "))) -->", "    <method name=\"\(name.rawValue)\">"]
        for p in parameters {
            lines.append("      <arg name=\"\(p.name)\" type=\"\(p.kind.dbusSignature)\" direction=\"in\"/>")
        }
        lines.append("      <arg name=\"sentence\" type=\"s\" direction=\"out\"/>")
        lines.append("      <arg name=\"result\" type=\"s\" direction=\"out\"/>")
        lines.append("    </method>")
        return lines.joined(separator: "\n")
    }

    /// Text safe inside an XML comment.
    static func xmlComment(_ text: String) -> String {
        text.replacingOccurrences(of: "--", with: "–").replacingOccurrences(of: "&", with: "and")
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
        (["    <!--",
          "      Matches a phrase as `engram ask` does (\"remember buy milk\", \"what do I know about actors\") and runs the intent.",
          "      Every intent method answers the spoken-style sentence and the whole result as JSON ({\"schema\":1,\"result\":…},",
          "      as engram ask prints it with its json flag). A phrase that matches nothing fails with org.engram.Engram.Error.NoMatch,",
          "      whose message names the closest intent and a phrase to try. The methods below are generated from the catalog",
          "      (engram ask, listing with its dbus-xml flag; an XML comment cannot hold two dashes in a row).",
          "    -->",
          "    <method name=\"Perform\">", "      <arg name=\"phrase\" type=\"s\" direction=\"in\"/>",
          "      <arg name=\"sentence\" type=\"s\" direction=\"out\"/>", "      <arg name=\"result\" type=\"s\" direction=\"out\"/>",
          "    </method>"] + all.map(\.dbusMethodXML)).joined(separator: "\n") + "\n"
    }
}
