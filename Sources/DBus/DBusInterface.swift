/// One D-Bus interface an object exports: its methods, properties and signals, as a table.
public struct DBusInterface: Sendable {
    /// The interface name, such as `org.gnome.Shell.SearchProvider2`.
    public let name: String
    /// The methods, in introspection order.
    public let methods: [DBusMethod]
    /// The properties, in introspection order.
    public let properties: [DBusProperty]
    /// The signals, in introspection order.
    public let signals: [DBusSignal]

    /// Creates an interface from its tables.
    public init(_ name: String, methods: [DBusMethod] = [], properties: [DBusProperty] = [], signals: [DBusSignal] = []) {
        self.name = name
        self.methods = methods
        self.properties = properties
        self.signals = signals
    }

    /// The method with this name, if any.
    public func method(named name: String) -> DBusMethod? { methods.first { $0.name == name } }
    /// The property with this name, if any.
    public func property(named name: String) -> DBusProperty? { properties.first { $0.name == name } }
    /// The signal with this name, if any.
    public func signal(named name: String) -> DBusSignal? { signals.first { $0.name == name } }

    /// Throws, naming the entry, if any name or signature in the table is invalid or repeated.
    func validate() throws {
        try DBusNames.validateInterface(name)
        if StandardInterfaces.names.contains(name) {
            throw DBusError.invalidArgs("\(name) is served automatically and cannot be exported by hand")
        }
        var seen = Set<String>()
        for method in methods {
            try DBusNames.validateMember(method.name)
            guard seen.insert("m" + method.name).inserted else {
                throw DBusError.invalidArgs("\(name) declares method \(method.name) twice")
            }
            try DBusArgument.validate(method.inArguments, of: "\(name).\(method.name)")
            try DBusArgument.validate(method.outArguments, of: "\(name).\(method.name)")
        }
        for signal in signals {
            try DBusNames.validateMember(signal.name)
            guard seen.insert("s" + signal.name).inserted else {
                throw DBusError.invalidArgs("\(name) declares signal \(signal.name) twice")
            }
            try DBusArgument.validate(signal.arguments, of: "\(name).\(signal.name)")
        }
        for property in properties {
            try DBusNames.validateMember(property.name)
            guard seen.insert("p" + property.name).inserted else {
                throw DBusError.invalidArgs("\(name) declares property \(property.name) twice")
            }
            try property.signature.validateSingle("property \(name).\(property.name)")
        }
    }
}
