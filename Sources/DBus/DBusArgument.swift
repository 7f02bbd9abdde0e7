/// One named argument of a method or signal, as it appears in introspection XML.
public struct DBusArgument: Sendable, Hashable {
    /// The argument's name, or empty for an unnamed argument.
    public var name: String
    /// The argument's single complete type.
    public var signature: DBusSignature

    /// Creates an argument with a name and a type.
    public init(_ name: String, _ signature: DBusSignature) {
        self.name = name
        self.signature = signature
    }

    /// Unnamed arguments, one per complete type of `signature`.
    static func unnamed(_ signature: DBusSignature) -> [DBusArgument] {
        signature.completeTypes.map { DBusArgument("", $0) }
    }

    /// Arguments from ordered `name: type` pairs.
    static func named(_ pairs: KeyValuePairs<String, DBusSignature>) -> [DBusArgument] {
        pairs.map { DBusArgument($0.key, $0.value) }
    }

    /// The body signature of a list of arguments.
    static func signature(of arguments: [DBusArgument]) -> DBusSignature {
        arguments.reduce(DBusSignature.empty) { $0 + $1.signature }
    }

    /// Throws `InvalidSignature` unless every argument is one valid complete type.
    static func validate(_ arguments: [DBusArgument], of what: String) throws {
        for argument in arguments {
            let label = argument.name.isEmpty ? "an argument of \(what)" : "argument '\(argument.name)' of \(what)"
            try argument.signature.validateSingle(label)
        }
    }
}
