/// One D-Bus value of any type our interfaces use, carrying enough type information
/// to know its own signature (an empty array still knows its element type).
public enum DBusValue: Sendable, Hashable {
    /// `y`: an unsigned 8-bit integer.
    case byte(UInt8)
    /// `b`: a boolean.
    case boolean(Bool)
    /// `n`: a signed 16-bit integer.
    case int16(Int16)
    /// `q`: an unsigned 16-bit integer.
    case uint16(UInt16)
    /// `i`: a signed 32-bit integer.
    case int32(Int32)
    /// `u`: an unsigned 32-bit integer.
    case uint32(UInt32)
    /// `x`: a signed 64-bit integer.
    case int64(Int64)
    /// `t`: an unsigned 64-bit integer.
    case uint64(UInt64)
    /// `d`: an IEEE 754 double.
    case double(Double)
    /// `s`: a UTF-8 string without NUL bytes.
    case string(String)
    /// `o`: an object path.
    case objectPath(DBusObjectPath)
    /// `g`: a type signature.
    case signature(DBusSignature)
    /// `a…`: an array whose elements all have the given element signature.
    case array(DBusSignature, [DBusValue])
    /// `a{…}`: a dictionary with the given key and value signatures; entries keep their order.
    case dictionary(key: DBusSignature, value: DBusSignature, [DBusDictEntry])
    /// `(…)`: a struct of one or more fields.
    case `struct`([DBusValue])
    /// `v`: a variant holding any single value.
    indirect case variant(DBusValue)
}

/// One key/value pair of a D-Bus dictionary.
public struct DBusDictEntry: Sendable, Hashable {
    /// The key, which must be a basic type.
    public var key: DBusValue
    /// The value.
    public var value: DBusValue

    /// Creates an entry.
    public init(_ key: DBusValue, _ value: DBusValue) {
        self.key = key
        self.value = value
    }
}

extension DBusValue {
    /// The value's D-Bus type signature, e.g. `a{sv}` for a string-keyed dictionary of variants.
    public var signature: DBusSignature {
        switch self {
        case .byte: return "y"
        case .boolean: return "b"
        case .int16: return "n"
        case .uint16: return "q"
        case .int32: return "i"
        case .uint32: return "u"
        case .int64: return "x"
        case .uint64: return "t"
        case .double: return "d"
        case .string: return "s"
        case .objectPath: return "o"
        case .signature: return "g"
        case .array(let element, _): return DBusSignature(unchecked: "a" + element.rawValue)
        case .dictionary(let key, let value, _):
            return DBusSignature(unchecked: "a{" + key.rawValue + value.rawValue + "}")
        case .struct(let fields):
            return DBusSignature(unchecked: "(" + fields.map(\.signature.rawValue).joined() + ")")
        case .variant: return "v"
        }
    }

    /// The signature of a list of values, as a message body carrying them would have.
    public static func signature(of values: [DBusValue]) -> DBusSignature {
        DBusSignature(unchecked: values.map(\.signature.rawValue).joined())
    }
}
