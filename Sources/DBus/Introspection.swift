/// Builds `org.freedesktop.DBus.Introspectable` XML from interface tables.
enum Introspection {
    static let header = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">

        """

    /// The XML for a node: the object's interfaces (if there is an object) and its child nodes.
    static func xml(for object: ExportedObject?, children: [String]) -> String {
        var out = header + "<node>\n"
        if let object {
            out += StandardInterfaces.introspectionXML
            for interface in object.interfaces { out += xml(for: interface) }
        }
        for child in children { out += "  <node name=\"\(escape(child))\"/>\n" }
        out += "</node>\n"
        return out
    }

    /// The `<interface>` element for one table.
    static func xml(for interface: DBusInterface) -> String {
        var out = "  <interface name=\"\(escape(interface.name))\">\n"
        for method in interface.methods {
            out += "    <method name=\"\(escape(method.name))\">\n"
            for arg in method.inArguments { out += argument(arg, direction: "in") }
            for arg in method.outArguments { out += argument(arg, direction: "out") }
            out += "    </method>\n"
        }
        for signal in interface.signals {
            out += "    <signal name=\"\(escape(signal.name))\">\n"
            for arg in signal.arguments { out += argument(arg, direction: nil) }
            out += "    </signal>\n"
        }
        for property in interface.properties {
            let open = "    <property name=\"\(escape(property.name))\" type=\"\(escape(property.signature.rawValue))\" access=\"\(property.access)\""
            if property.changeNotification == .value {
                out += open + "/>\n"
            } else {
                out += open + ">\n"
                out += "      <annotation name=\"org.freedesktop.DBus.Property.EmitsChangedSignal\" value=\"\(property.changeNotification.rawValue)\"/>\n"
                out += "    </property>\n"
            }
        }
        out += "  </interface>\n"
        return out
    }

    private static func argument(_ arg: DBusArgument, direction: String?) -> String {
        var out = "      <arg"
        if !arg.name.isEmpty { out += " name=\"\(escape(arg.name))\"" }
        out += " type=\"\(escape(arg.signature.rawValue))\""
        if let direction { out += " direction=\"\(direction)\"" }
        return out + "/>\n"
    }

    /// Escapes text for an XML attribute value.
    static func escape(_ text: String) -> String {
        var out = ""
        for ch in text {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(ch)
            }
        }
        return out
    }
}
