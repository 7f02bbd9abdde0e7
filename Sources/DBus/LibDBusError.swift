import CDBus

/// A libdbus `DBusError` out-parameter, initialised and freed around one call.
final class LibDBusError {
    /// The C struct libdbus fills in; stable for the object's lifetime.
    let pointer: UnsafeMutablePointer<CDBus.DBusError>

    /// Allocates and initialises an unset libdbus error.
    init() {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: CDBus.DBusError())
        dbus_error_init(pointer)
    }

    deinit {
        dbus_error_free(pointer)
        pointer.deallocate()
    }

    /// Whether libdbus set the error.
    var isSet: Bool { dbus_error_is_set(pointer) != 0 }

    /// The error as a Swift `DBusError`, or nil if libdbus did not set it.
    var error: DBusError? {
        guard isSet else { return nil }
        let name = pointer.pointee.name.map { String(cString: $0) } ?? DBusError.Name.failed
        let message = pointer.pointee.message.map { String(cString: $0) } ?? ""
        return DBusError(name: name, message: message)
    }
}
