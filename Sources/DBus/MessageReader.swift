import CDBus

/// Reads a message body into `DBusValue`s through libdbus's read iterators.
///
/// libdbus validates every message it receives (signature, UTF-8, nesting at most 64),
/// so recursion here is bounded; the reader still checks depth itself, and stops at a
/// budget of values so a hostile 64 MiB array cannot make us allocate gigabytes.
struct MessageReader {
    /// How many values one message may decode to before it is refused.
    static let maximumValueCount = 4 * 1024 * 1024

    /// Values still allowed in this message.
    private var budget = MessageReader.maximumValueCount

    /// Reads every argument of `message`.
    mutating func readAll(_ message: OpaquePointer) throws -> [DBusValue] {
        let iter = UnsafeMutablePointer<DBusMessageIter>.allocate(capacity: 1)
        defer { iter.deallocate() }
        iter.initialize(to: DBusMessageIter())
        guard dbus_message_iter_init(message, iter) != 0 else { return [] }
        var values: [DBusValue] = []
        while dbus_message_iter_get_arg_type(iter) != CDBUS_TYPE_INVALID {
            values.append(try read(iter, depth: 0))
            dbus_message_iter_next(iter)
        }
        return values
    }

    private mutating func spend(_ count: Int) throws {
        budget -= count
        if budget < 0 {
            throw DBusError.invalidArgs(
                "the message holds more than \(MessageReader.maximumValueCount) values, more than Engram accepts")
        }
    }

    private static func basic<T>(_ iter: UnsafeMutablePointer<DBusMessageIter>, _ zero: T) -> T {
        var value = zero
        withUnsafeMutablePointer(to: &value) { dbus_message_iter_get_basic(iter, $0) }
        return value
    }

    private static func text(_ iter: UnsafeMutablePointer<DBusMessageIter>) -> String {
        var pointer: UnsafePointer<CChar>? = nil
        dbus_message_iter_get_basic(iter, &pointer)
        return pointer.map { String(cString: $0) } ?? ""
    }

    /// The signature of the value under the iterator.
    private static func signature(_ iter: UnsafeMutablePointer<DBusMessageIter>) -> DBusSignature {
        guard let raw = dbus_message_iter_get_signature(iter) else { return .empty }
        defer { dbus_free(raw) }
        return DBusSignature(unchecked: String(cString: raw))
    }

    private static func recurse(_ iter: UnsafeMutablePointer<DBusMessageIter>) -> UnsafeMutablePointer<DBusMessageIter> {
        let sub = UnsafeMutablePointer<DBusMessageIter>.allocate(capacity: 1)
        sub.initialize(to: DBusMessageIter())
        dbus_message_iter_recurse(iter, sub)
        return sub
    }

    private static let fixedTypes: Set<Int32> = [
        CDBUS_TYPE_BYTE, CDBUS_TYPE_BOOLEAN, CDBUS_TYPE_INT16, CDBUS_TYPE_UINT16, CDBUS_TYPE_INT32,
        CDBUS_TYPE_UINT32, CDBUS_TYPE_INT64, CDBUS_TYPE_UINT64, CDBUS_TYPE_DOUBLE,
    ]

    private mutating func read(_ iter: UnsafeMutablePointer<DBusMessageIter>, depth: Int) throws -> DBusValue {
        try spend(1)
        if depth > DBusValue.maximumNestingDepth {
            throw DBusError.invalidArgs("the message nests values more than \(DBusValue.maximumNestingDepth) deep")
        }
        let type = dbus_message_iter_get_arg_type(iter)
        switch type {
        case CDBUS_TYPE_BYTE: return .byte(Self.basic(iter, UInt8(0)))
        case CDBUS_TYPE_BOOLEAN: return .boolean(Self.basic(iter, dbus_bool_t(0)) != 0)
        case CDBUS_TYPE_INT16: return .int16(Self.basic(iter, Int16(0)))
        case CDBUS_TYPE_UINT16: return .uint16(Self.basic(iter, UInt16(0)))
        case CDBUS_TYPE_INT32: return .int32(Self.basic(iter, Int32(0)))
        case CDBUS_TYPE_UINT32: return .uint32(Self.basic(iter, UInt32(0)))
        case CDBUS_TYPE_INT64: return .int64(Self.basic(iter, Int64(0)))
        case CDBUS_TYPE_UINT64: return .uint64(Self.basic(iter, UInt64(0)))
        case CDBUS_TYPE_DOUBLE: return .double(Self.basic(iter, Double(0)))
        case CDBUS_TYPE_STRING: return .string(Self.text(iter))
        case CDBUS_TYPE_OBJECT_PATH: return .objectPath(DBusObjectPath(unchecked: Self.text(iter)))
        case CDBUS_TYPE_SIGNATURE: return .signature(DBusSignature(unchecked: Self.text(iter)))
        case CDBUS_TYPE_ARRAY:
            let arraySignature = Self.signature(iter)
            let element = DBusSignature(unchecked: String(arraySignature.rawValue.dropFirst()))
            let elementType = dbus_message_iter_get_element_type(iter)
            if Self.fixedTypes.contains(elementType) {
                // O(1) for fixed-size elements: refuse a hostile array before decoding it.
                if Int(dbus_message_iter_get_element_count(iter)) > budget { try spend(budget + 1) }
            }
            let sub = Self.recurse(iter)
            defer { sub.deallocate() }
            if elementType == CDBUS_TYPE_DICT_ENTRY {
                let parts = DBusSignature(unchecked: String(element.rawValue.dropFirst().dropLast())).completeTypes
                guard parts.count == 2 else {
                    throw DBusError.invalidArgs("malformed dictionary signature '\(arraySignature)'")
                }
                var entries: [DBusDictEntry] = []
                while dbus_message_iter_get_arg_type(sub) != CDBUS_TYPE_INVALID {
                    try spend(1)
                    let pair = Self.recurse(sub)
                    defer { pair.deallocate() }
                    let key = try read(pair, depth: depth + 2)
                    dbus_message_iter_next(pair)
                    let value = try read(pair, depth: depth + 2)
                    entries.append(DBusDictEntry(key, value))
                    dbus_message_iter_next(sub)
                }
                return .dictionary(key: parts[0], value: parts[1], entries)
            }
            var items: [DBusValue] = []
            while dbus_message_iter_get_arg_type(sub) != CDBUS_TYPE_INVALID {
                items.append(try read(sub, depth: depth + 1))
                dbus_message_iter_next(sub)
            }
            return .array(element, items)
        case CDBUS_TYPE_STRUCT:
            let sub = Self.recurse(iter)
            defer { sub.deallocate() }
            var fields: [DBusValue] = []
            while dbus_message_iter_get_arg_type(sub) != CDBUS_TYPE_INVALID {
                fields.append(try read(sub, depth: depth + 1))
                dbus_message_iter_next(sub)
            }
            return .struct(fields)
        case CDBUS_TYPE_VARIANT:
            let sub = Self.recurse(iter)
            defer { sub.deallocate() }
            return .variant(try read(sub, depth: depth + 1))
        case CDBUS_TYPE_UNIX_FD:
            throw DBusError.invalidArgs("unix file descriptors (type 'h') are not supported")
        default:
            let code = UnicodeScalar(UInt8(truncatingIfNeeded: type))
            throw DBusError.invalidArgs("unknown D-Bus type code '\(Character(code))'")
        }
    }
}
