extension DBusValue {
    /// The value inside any number of variants: `<<'x'>>` gives `'x'`.
    public var unwrapped: DBusValue {
        var value = self
        while case .variant(let inner) = value { value = inner }
        return value
    }

    /// The string, if this is (a variant holding) a string or object path.
    public var stringValue: String? {
        switch unwrapped {
        case .string(let s): return s
        case .objectPath(let p): return p.rawValue
        default: return nil
        }
    }

    /// The boolean, if this is (a variant holding) a boolean.
    public var boolValue: Bool? { Bool(dbusValue: self) }
    /// The byte, if this is (a variant holding) a byte.
    public var byteValue: UInt8? { UInt8(dbusValue: self) }
    /// The int32, if this is (a variant holding) an int32.
    public var int32Value: Int32? { Int32(dbusValue: self) }
    /// The uint32, if this is (a variant holding) a uint32.
    public var uint32Value: UInt32? { UInt32(dbusValue: self) }
    /// The int64, if this is (a variant holding) an int64.
    public var int64Value: Int64? { Int64(dbusValue: self) }
    /// The uint64, if this is (a variant holding) a uint64.
    public var uint64Value: UInt64? { UInt64(dbusValue: self) }
    /// The double, if this is (a variant holding) a double.
    public var doubleValue: Double? { Double(dbusValue: self) }
    /// The object path, if this is (a variant holding) an object path.
    public var objectPathValue: DBusObjectPath? { DBusObjectPath(dbusValue: self) }

    /// Any integer type widened to Int64, if this is (a variant holding) an integer that fits.
    public var integerValue: Int64? {
        switch unwrapped {
        case .byte(let v): return Int64(v)
        case .int16(let v): return Int64(v)
        case .uint16(let v): return Int64(v)
        case .int32(let v): return Int64(v)
        case .uint32(let v): return Int64(v)
        case .int64(let v): return v
        case .uint64(let v): return Int64(exactly: v)
        default: return nil
        }
    }

    /// The elements, if this is (a variant holding) an array; a dictionary gives none.
    public var arrayValue: [DBusValue]? {
        if case .array(_, let items) = unwrapped { return items }
        return nil
    }

    /// The strings, if this is (a variant holding) an array of strings (`as`).
    public var stringArrayValue: [String]? { [String](dbusValue: self) }

    /// The fields, if this is (a variant holding) a struct.
    public var structValue: [DBusValue]? {
        if case .struct(let fields) = unwrapped { return fields }
        return nil
    }

    /// The entries, if this is (a variant holding) a dictionary.
    public var dictionaryEntries: [DBusDictEntry]? {
        if case .dictionary(_, _, let entries) = unwrapped { return entries }
        return nil
    }

    /// A string-keyed dictionary such as `a{sv}` as Swift, with variant values unwrapped one level.
    public var dictionaryValue: [String: DBusValue]? { [String: DBusValue](dbusValue: self) }

    /// The value held by a variant, if this is a variant.
    public var variantValue: DBusValue? {
        if case .variant(let inner) = self { return inner }
        return nil
    }

    /// The `index`th element of an array or field of a struct, or nil.
    public subscript(index: Int) -> DBusValue? {
        let items: [DBusValue]
        switch unwrapped {
        case .array(_, let values), .struct(let values): items = values
        default: return nil
        }
        return items.indices.contains(index) ? items[index] : nil
    }

    /// The value for a string key of a dictionary such as `a{sv}` (variants unwrapped one level), or nil.
    public subscript(key: String) -> DBusValue? {
        guard case .dictionary(_, _, let entries) = unwrapped else { return nil }
        guard let entry = entries.first(where: { $0.key.stringValue == key }) else {
            return nil
        }
        if case .variant(let inner) = entry.value { return inner }
        return entry.value
    }
}

extension DBusValue: ExpressibleByStringLiteral {
    /// A string literal is a `.string`.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension DBusValue: ExpressibleByIntegerLiteral {
    /// An integer literal is an `.int32`, D-Bus's everyday integer.
    public init(integerLiteral value: Int32) { self = .int32(value) }
}

extension DBusValue: ExpressibleByFloatLiteral {
    /// A float literal is a `.double`.
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension DBusValue: ExpressibleByBooleanLiteral {
    /// A boolean literal is a `.boolean`.
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
}

extension DBusValue {
    /// An `a{sv}` dictionary from Swift, sorted by key so its wire form is stable.
    public static func vardict(_ dictionary: [String: DBusValue]) -> DBusValue {
        dictionary.dbusValue
    }

    /// An `as` array from Swift strings.
    public static func strings(_ strings: [String]) -> DBusValue {
        strings.dbusValue
    }
}
