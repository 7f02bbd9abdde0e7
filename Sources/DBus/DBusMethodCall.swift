/// An incoming method call, as a handler sees it.
public struct DBusMethodCall: Sendable {
    /// The caller's unique bus name, such as `:1.42`.
    public let sender: String
    /// The object path the call was sent to.
    public let path: DBusObjectPath
    /// The interface of the method.
    public let interface: String
    /// The method name.
    public let member: String
    /// The arguments, already checked against the method's input signature.
    public let arguments: [DBusValue]

    /// Creates a call (handlers receive these; tests may build them directly).
    public init(sender: String, path: DBusObjectPath, interface: String, member: String, arguments: [DBusValue]) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
    }

    /// The argument at `index` as a Swift type, or `InvalidArgs` saying what was there instead.
    public func argument<T: DBusRepresentable>(_ index: Int, as type: T.Type = T.self) throws -> T {
        guard arguments.indices.contains(index) else {
            throw DBusError.invalidArgs("\(member) expects an argument \(index), but only \(arguments.count) were sent")
        }
        guard let value = T(dbusValue: arguments[index]) else {
            throw DBusError.invalidArgs(
                "\(member) argument \(index) should be '\(T.dbusSignature)' but is '\(arguments[index].signature)'")
        }
        return value
    }
}
