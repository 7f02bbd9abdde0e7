/// One property of an exported interface, served through `org.freedesktop.DBus.Properties`.
public struct DBusProperty: Sendable {
    /// How changes to the property are announced in `PropertiesChanged`.
    public enum ChangeNotification: String, Sendable {
        /// The new value is sent with the signal.
        case value = "true"
        /// The property is listed as invalidated, without its value.
        case invalidates = "invalidates"
        /// No signal is sent.
        case none = "false"
        /// The value never changes.
        case constant = "const"
    }

    /// The property name.
    public let name: String
    /// The property's single complete type.
    public let signature: DBusSignature
    /// How changes are announced.
    public let changeNotification: ChangeNotification
    let getter: @Sendable () throws -> DBusValue
    let setter: (@Sendable (DBusValue) throws -> Void)?

    /// Whether peers may write the property.
    public var isWritable: Bool { setter != nil }

    /// The introspection access: `read` or `readwrite`.
    var access: String { isWritable ? "readwrite" : "read" }

    /// A property with a getter, and a setter if peers may write it.
    ///
    /// Getters and setters run on the bus thread. The setter receives a value already checked
    /// against `signature`; a successful Set is announced with `PropertiesChanged`.
    public init(_ name: String, _ signature: DBusSignature, changes: ChangeNotification = .value,
                get: @escaping @Sendable () throws -> DBusValue,
                set: (@Sendable (DBusValue) throws -> Void)? = nil) {
        self.name = name
        self.signature = signature
        self.changeNotification = changes
        self.getter = get
        self.setter = set
    }
}

/// The reads of one `Get` or `GetAll` call. Getters that derive several properties from one costly read (a store
/// query) share it with `shared`, so a `GetAll` makes that read once rather than once per property; each call reads
/// afresh.
public final class DBusPropertyRead: @unchecked Sendable {
    /// The call whose getters are running, on the bus thread while it serves a `Get` or `GetAll`.
    @TaskLocal static var current: DBusPropertyRead?
    private var values: [String: Any] = [:]  // used from the one thread serving the call

    /// `read()`'s value, made once per call for `key`; outside a call (a getter called directly), made each time.
    public static func shared<T>(_ key: String, _ read: () -> T) -> T {
        guard let call = current else { return read() }
        if let value = call.values[key] as? T { return value }
        let value = read()
        call.values[key] = value
        return value
    }
}
