/// An error that crosses the bus: a D-Bus error name plus a human-readable message.
///
/// Handlers throw it to send an error reply with that name; calls throw it when the
/// peer answers with an error, when no reply arrives in time, or when the connection is gone.
public struct DBusError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The D-Bus error name, such as `org.freedesktop.DBus.Error.InvalidArgs`.
    public var name: String
    /// What happened, in words a person can act on.
    public var message: String

    /// Creates an error with a D-Bus error name and a message.
    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    /// The error as `name: message`.
    public var description: String { message.isEmpty ? name : "\(name): \(message)" }

    /// Whether the error means the call got no reply within its timeout.
    public var isTimeout: Bool { name == Name.noReply || name == Name.timeout || name == Name.timedOut }
}

extension DBusError {
    /// Well-known error names from the D-Bus specification.
    public enum Name {
        /// A generic failure.
        public static let failed = "org.freedesktop.DBus.Error.Failed"
        /// The arguments did not match what the method expects.
        public static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
        /// The object has no method of that name.
        public static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
        /// The object has no interface of that name.
        public static let unknownInterface = "org.freedesktop.DBus.Error.UnknownInterface"
        /// There is no object at that path.
        public static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
        /// The interface has no property of that name.
        public static let unknownProperty = "org.freedesktop.DBus.Error.UnknownProperty"
        /// The property cannot be written.
        public static let propertyReadOnly = "org.freedesktop.DBus.Error.PropertyReadOnly"
        /// No reply arrived before the call's timeout.
        public static let noReply = "org.freedesktop.DBus.Error.NoReply"
        /// An operation timed out.
        public static let timeout = "org.freedesktop.DBus.Error.Timeout"
        /// An operation timed out (the bus daemon's spelling).
        public static let timedOut = "org.freedesktop.DBus.Error.TimedOut"
        /// The connection is closed or was lost.
        public static let disconnected = "org.freedesktop.DBus.Error.Disconnected"
        /// The destination name has no owner.
        public static let serviceUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"
        /// The name has no owner.
        public static let nameHasNoOwner = "org.freedesktop.DBus.Error.NameHasNoOwner"
        /// A signature is not valid.
        public static let invalidSignature = "org.freedesktop.DBus.Error.InvalidSignature"
        /// The process ran out of memory.
        public static let noMemory = "org.freedesktop.DBus.Error.NoMemory"
        /// The bus address could not be used.
        public static let badAddress = "org.freedesktop.DBus.Error.BadAddress"
        /// The match rule is not valid.
        public static let matchRuleInvalid = "org.freedesktop.DBus.Error.MatchRuleInvalid"
    }

    /// An `InvalidArgs` error with the given message.
    public static func invalidArgs(_ message: String) -> DBusError {
        DBusError(name: Name.invalidArgs, message: message)
    }

    /// A generic `Failed` error with the given message.
    public static func failed(_ message: String) -> DBusError {
        DBusError(name: Name.failed, message: message)
    }

    /// The error thrown when the connection is closed or lost.
    static let disconnected = DBusError(
        name: Name.disconnected,
        message: "the D-Bus connection is closed; reconnect to the bus and try again")
}
