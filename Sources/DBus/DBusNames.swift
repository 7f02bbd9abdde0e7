import CDBus

/// Validation of bus, interface, member and error names, through libdbus's own checks.
///
/// libdbus aborts the process when handed an invalid name, so every name is checked here first.
public enum DBusNames {
    /// Whether `name` is a valid bus name (unique `:1.5` or well-known `org.engram.Engram`).
    public static func isValidBusName(_ name: String) -> Bool { isValid(name, dbus_validate_bus_name) }
    /// Whether `name` is a valid interface name such as `org.gnome.Shell.SearchProvider2`.
    public static func isValidInterface(_ name: String) -> Bool { isValid(name, dbus_validate_interface) }
    /// Whether `name` is a valid member (method or signal) name such as `GetResultMetas`.
    public static func isValidMember(_ name: String) -> Bool { isValid(name, dbus_validate_member) }
    /// Whether `name` is a valid error name such as `org.engram.Error.NotFound`.
    public static func isValidErrorName(_ name: String) -> Bool { isValid(name, dbus_validate_error_name) }

    /// Throws `InvalidArgs` unless `name` is a valid bus name.
    static func validateBusName(_ name: String) throws { try validate(name, kind: "bus name", dbus_validate_bus_name) }
    /// Throws `InvalidArgs` unless `name` is a valid interface name.
    static func validateInterface(_ name: String) throws { try validate(name, kind: "interface name", dbus_validate_interface) }
    /// Throws `InvalidArgs` unless `name` is a valid member name.
    static func validateMember(_ name: String) throws { try validate(name, kind: "member name", dbus_validate_member) }
    /// Throws `InvalidArgs` unless `name` is a valid error name.
    static func validateErrorName(_ name: String) throws { try validate(name, kind: "error name", dbus_validate_error_name) }

    typealias Validator = (UnsafePointer<CChar>?, UnsafeMutablePointer<CDBus.DBusError>?) -> dbus_bool_t

    /// Runs a libdbus validator on a Swift string, rejecting embedded NUL bytes first.
    static func isValid(_ text: String, _ validator: Validator) -> Bool {
        guard !text.utf8.contains(0) else { return false }
        return text.withCString { validator($0, nil) != 0 }
    }

    /// Runs a libdbus validator and throws `InvalidArgs` with libdbus's reason on failure.
    static func validate(_ text: String, kind: String, _ validator: Validator) throws {
        guard !text.utf8.contains(0) else {
            throw DBusError.invalidArgs("\(kind) '\(text)' contains a NUL byte")
        }
        let error = LibDBusError()
        if text.withCString({ validator($0, error.pointer) }) == 0 {
            let reason = error.error?.message ?? "it is malformed"
            throw DBusError.invalidArgs("'\(text)' is not a valid \(kind): \(reason)")
        }
    }
}
