/// A signal received from the bus.
public struct DBusSignalEvent: Sendable {
    /// The sender's unique name, such as `:1.42` (the bus itself is `org.freedesktop.DBus`).
    public let sender: String
    /// The object path that emitted it.
    public let path: DBusObjectPath
    /// The signal's interface.
    public let interface: String
    /// The signal's name.
    public let member: String
    /// The signal's arguments.
    public let arguments: [DBusValue]

    /// Creates a signal event (the connection builds these; tests may too).
    public init(sender: String, path: DBusObjectPath, interface: String, member: String, arguments: [DBusValue]) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
    }
}
