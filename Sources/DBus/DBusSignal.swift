/// One signal an exported interface may emit, described for introspection and checked on emission.
public struct DBusSignal: Sendable {
    /// The signal name.
    public let name: String
    /// The signal's arguments.
    public let arguments: [DBusArgument]

    /// The signature the signal's arguments must have.
    public var signature: DBusSignature { DBusArgument.signature(of: arguments) }

    /// A signal with unnamed arguments of the given signature.
    public init(_ name: String, _ signature: DBusSignature = .empty) {
        self.name = name
        self.arguments = DBusArgument.unnamed(signature)
    }

    /// A signal with named arguments.
    public init(_ name: String, arguments: KeyValuePairs<String, DBusSignature>) {
        self.name = name
        self.arguments = DBusArgument.named(arguments)
    }
}
