/// A Swift type with a fixed D-Bus type, convertible to and from `DBusValue`.
///
/// Conversions from a value look through variants, so `String(dbusValue: .variant("x"))` is `"x"`.
/// `DBusValue` itself conforms as the variant type `v`: inside a collection it means "any value",
/// so `[String: DBusValue]` is `a{sv}` and `[DBusValue]` is `av`.
public protocol DBusRepresentable: Sendable {
    /// The D-Bus signature of every value of this type.
    static var dbusSignature: DBusSignature { get }
    /// Converts from a D-Bus value, or returns nil if the value has another type.
    init?(dbusValue: DBusValue)
    /// The value as D-Bus.
    var dbusValue: DBusValue { get }
}

extension Bool: DBusRepresentable {
    /// `b`.
    public static var dbusSignature: DBusSignature { "b" }
    /// Converts from `.boolean`.
    public init?(dbusValue: DBusValue) {
        guard case .boolean(let v) = dbusValue.unwrapped else { return nil }
        self = v
    }
    /// `.boolean(self)`.
    public var dbusValue: DBusValue { .boolean(self) }
}

extension UInt8: DBusRepresentable {
    /// `y`.
    public static var dbusSignature: DBusSignature { "y" }
    /// Converts from `.byte`.
    public init?(dbusValue: DBusValue) {
        guard case .byte(let v) = dbusValue.unwrapped else { return nil }
        self = v
    }
    /// `.byte(self)`.
    public var dbusValue: DBusValue { .byte(self) }
}

extension Int16: DBusRepresentable {
    /// `n`.
    public static var dbusSignature: DBusSignature { "n" }
    /// Converts from `.int16`.
    public init?(dbusValue: DBusValue) {
        guard case .int16(let v) = dbusValue.unwrapped else { return nil }
        self = v
    }
    /// `.int16(self)`.
    public var dbusValue: DBusValue { .int16(self) }
}

extension UInt16: DBusRepresentable {
    /// `q`.
    public static var dbusSignature: DBusSignature { "q" }
    /// Converts from `.uint16`.
    public init?(dbusValue: DBusValue) {
        guard case .uint16(let v) = dbusValue.unwrapped else { return nil }
        self = v
    }
    /// `.uint16(self)`.
    public var dbusValue: DBusValue { .uint16(self) }
}

extension Int32: DBusRepresentable {
    /// `i`.
    public static var dbusSignature: DBusSignature { "i" }
    /// Converts from `.int32`.
    public init?(dbusValue: DBusValue) {
        guard case .int32(let v) = dbusValue.unwrapped else { return nil }
        self = v
    }
    /// `.int32(self)`.
    public var dbusValue: DBusValue { .int32(self) }
}

extension UInt32: DBusRepresentable {
    /// `u`.
    public static var dbusSignature: DBusSignature { "u" }
    /// Converts from `.uint32`.
    public init?(dbusValue: DBusValue) {
        guard case .uint32(let v) = dbusValue.unwrapped else { return nil }
        self = v
    }
    /// `.uint32(self)`.
    public var dbusValue: DBusValue { .uint32(self) }
}

extension Int64: DBusRepresentable {
    /// `x`.
    public static var dbusSignature: DBusSignature { "x" }
    /// Converts from `.int64`.
    public init?(dbusValue: DBusValue) {
        guard case .int64(let v) = dbusValue.unwrapped else { return nil }
        self = v
    }
    /// `.int64(self)`.
    public var dbusValue: DBusValue { .int64(self) }
}

extension UInt64: DBusRepresentable {
    /// `t`.
    public static var dbusSignature: DBusSignature { "t" }
    /// Converts from `.uint64`.
    public init?(dbusValue: DBusValue) {
        guard case .uint64(let v) = dbusValue.unwrapped else { return nil }
        self = v
    }
    /// `.uint64(self)`.
    public var dbusValue: DBusValue { .uint64(self) }
}

extension Double: DBusRepresentable {
    /// `d`.
    public static var dbusSignature: DBusSignature { "d" }
    /// Converts from `.double`.
    public init?(dbusValue: DBusValue) {
        guard case .double(let v) = dbusValue.unwrapped else { return nil }
        self = v
    }
    /// `.double(self)`.
    public var dbusValue: DBusValue { .double(self) }
}

extension String: DBusRepresentable {
    /// `s`.
    public static var dbusSignature: DBusSignature { "s" }
    /// Converts from `.string` (object paths and signatures are not strings here).
    public init?(dbusValue: DBusValue) {
        guard case .string(let v) = dbusValue.unwrapped else { return nil }
        self = v
    }
    /// `.string(self)`.
    public var dbusValue: DBusValue { .string(self) }
}

extension DBusObjectPath: DBusRepresentable {
    /// `o`.
    public static var dbusSignature: DBusSignature { "o" }
    /// Converts from `.objectPath`.
    public init?(dbusValue: DBusValue) {
        guard case .objectPath(let v) = dbusValue.unwrapped else { return nil }
        self = v
    }
    /// `.objectPath(self)`.
    public var dbusValue: DBusValue { .objectPath(self) }
}

extension DBusSignature: DBusRepresentable {
    /// `g`.
    public static var dbusSignature: DBusSignature { "g" }
    /// Converts from `.signature`.
    public init?(dbusValue: DBusValue) {
        guard case .signature(let v) = dbusValue.unwrapped else { return nil }
        self = v
    }
    /// `.signature(self)`.
    public var dbusValue: DBusValue { .signature(self) }
}

extension DBusValue: DBusRepresentable {
    /// `v`: a `DBusValue` in a typed position is a variant.
    public static var dbusSignature: DBusSignature { "v" }
    /// Unwraps one variant level; any other value is taken as it is.
    public init?(dbusValue: DBusValue) {
        if case .variant(let inner) = dbusValue { self = inner } else { self = dbusValue }
    }
    /// `.variant(self)`.
    public var dbusValue: DBusValue { .variant(self) }
}

extension Array: DBusRepresentable where Element: DBusRepresentable {
    /// `a` followed by the element signature.
    public static var dbusSignature: DBusSignature { DBusSignature(unchecked: "a" + Element.dbusSignature.rawValue) }
    /// Converts from an array whose every element converts.
    public init?(dbusValue: DBusValue) {
        guard case .array(_, let items) = dbusValue.unwrapped else { return nil }
        var result: [Element] = []
        result.reserveCapacity(items.count)
        for item in items {
            guard let element = Element(dbusValue: item) else { return nil }
            result.append(element)
        }
        self = result
    }
    /// `.array` of the elements' values.
    public var dbusValue: DBusValue { .array(Element.dbusSignature, map(\.dbusValue)) }
}

extension Dictionary: DBusRepresentable where Key: DBusRepresentable & Comparable, Value: DBusRepresentable {
    /// `a{KV}` from the key and value signatures.
    public static var dbusSignature: DBusSignature {
        DBusSignature(unchecked: "a{" + Key.dbusSignature.rawValue + Value.dbusSignature.rawValue + "}")
    }
    /// Converts from a dictionary whose every key and value converts (later duplicate keys win).
    public init?(dbusValue: DBusValue) {
        guard case .dictionary(_, _, let entries) = dbusValue.unwrapped else { return nil }
        var result: [Key: Value] = [:]
        result.reserveCapacity(entries.count)
        for entry in entries {
            guard let key = Key(dbusValue: entry.key), let value = Value(dbusValue: entry.value) else { return nil }
            result[key] = value
        }
        self = result
    }
    /// `.dictionary` with entries sorted by key, so the wire form is stable.
    public var dbusValue: DBusValue {
        .dictionary(key: Key.dbusSignature, value: Value.dbusSignature,
                    sorted { $0.key < $1.key }.map { DBusDictEntry($0.key.dbusValue, $0.value.dbusValue) })
    }
}
