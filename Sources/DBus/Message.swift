import CDBus

/// One libdbus message, owned by reference count.
///
/// Sendable because a message is only mutated while it is being built, by the one thread
/// building it; afterwards it is read-only, and libdbus reference counts are atomic.
final class Message: @unchecked Sendable {
    /// The `DBusMessage *`.
    let raw: OpaquePointer

    /// Takes ownership of a reference the caller already holds.
    init(taking raw: OpaquePointer) {
        self.raw = raw
    }

    /// Adds a reference to a message libdbus lends us.
    init(retaining raw: OpaquePointer) {
        self.raw = dbus_message_ref(raw)
    }

    deinit {
        dbus_message_unref(raw)
    }

    /// A method call, with every name validated first.
    static func methodCall(destination: String?, path: DBusObjectPath, interface: String?, member: String) throws -> Message {
        if let destination { try DBusNames.validateBusName(destination) }
        try path.validate()
        if let interface { try DBusNames.validateInterface(interface) }
        try DBusNames.validateMember(member)
        try rejectLocal(path: path, interface: interface)
        guard let raw = dbus_message_new_method_call(destination, path.rawValue, interface, member) else {
            throw DBusError.outOfMemory
        }
        return Message(taking: raw)
    }

    /// A signal, with every name validated first.
    static func signal(path: DBusObjectPath, interface: String, member: String) throws -> Message {
        try path.validate()
        try DBusNames.validateInterface(interface)
        try DBusNames.validateMember(member)
        try rejectLocal(path: path, interface: interface)
        guard let raw = dbus_message_new_signal(path.rawValue, interface, member) else {
            throw DBusError.outOfMemory
        }
        return Message(taking: raw)
    }

    /// The successful reply to this method call.
    func makeReturn() throws -> Message {
        guard let raw = dbus_message_new_method_return(self.raw) else { throw DBusError.outOfMemory }
        return Message(taking: raw)
    }

    /// An error reply to this method call; an invalid error name becomes `Failed`.
    func makeError(_ error: DBusError) -> Message? {
        var name = error.name
        var text = error.message
        if !DBusNames.isValidErrorName(name) {
            text = "\(name): \(text)"
            name = DBusError.Name.failed
        }
        // libdbus reads the message as a C string; a NUL would cut it short.
        text = String(text.map { $0 == "\0" ? "\u{FFFD}" : $0 })
        return dbus_message_new_error(raw, name, text).map { Message(taking: $0) }
    }

    private static func rejectLocal(path: DBusObjectPath, interface: String?) throws {
        if path.rawValue == "/org/freedesktop/DBus/Local" || interface == "org.freedesktop.DBus.Local" {
            throw DBusError.invalidArgs("org.freedesktop.DBus.Local is reserved for libdbus itself")
        }
    }

    // MARK: Header fields

    /// The message type (`DBUS_MESSAGE_TYPE_*`).
    var type: Int32 { dbus_message_get_type(raw) }
    /// The object path, if any.
    var path: String? { dbus_message_get_path(raw).map { String(cString: $0) } }
    /// The interface, if any.
    var interface: String? { dbus_message_get_interface(raw).map { String(cString: $0) } }
    /// The member (method or signal name), if any.
    var member: String? { dbus_message_get_member(raw).map { String(cString: $0) } }
    /// The sender's unique name, if any.
    var sender: String? { dbus_message_get_sender(raw).map { String(cString: $0) } }
    /// The destination, if any.
    var destination: String? { dbus_message_get_destination(raw).map { String(cString: $0) } }
    /// The error name of an error message.
    var errorName: String? { dbus_message_get_error_name(raw).map { String(cString: $0) } }
    /// The body signature.
    var signature: DBusSignature {
        DBusSignature(unchecked: dbus_message_get_signature(raw).map { String(cString: $0) } ?? "")
    }
    /// The serial of the call this message replies to.
    var replySerial: UInt32 { dbus_message_get_reply_serial(raw) }
    /// Whether the caller asked for no reply.
    var noReplyExpected: Bool { dbus_message_get_no_reply(raw) != 0 }

    /// The error this error message carries: its name and its first string argument.
    var carriedError: DBusError {
        let name = errorName ?? DBusError.Name.failed
        let text = (try? readArguments().first?.stringValue) ?? nil
        return DBusError(name: name, message: text ?? "")
    }

    /// Marks a call as not expecting a reply.
    func setNoReply() {
        dbus_message_set_no_reply(raw, 1)
    }

    /// Addresses the message to one bus name, which the caller has validated.
    func setDestination(_ destination: String) {
        _ = dbus_message_set_destination(raw, destination)
    }

    // MARK: Body

    /// Appends values to the body, after checking they can be sent as they are.
    func append(_ values: [DBusValue]) throws {
        try MessageWriter.append(values, to: raw)
    }

    /// Reads every argument of the body.
    func readArguments() throws -> [DBusValue] {
        var reader = MessageReader()
        return try reader.readAll(raw)
    }
}

extension DBusError {
    /// The error thrown when libdbus cannot allocate.
    static let outOfMemory = DBusError(name: DBusError.Name.noMemory, message: "libdbus ran out of memory")
}
