import CDBus

/// Writes `DBusValue`s into a message body through libdbus's append iterators.
enum MessageWriter {
    /// Validates `values`, then appends them to the message's body.
    static func append(_ values: [DBusValue], to message: OpaquePointer) throws {
        try DBusValue.validateForWriting(values)
        let iter = UnsafeMutablePointer<DBusMessageIter>.allocate(capacity: 1)
        defer { iter.deallocate() }
        iter.initialize(to: DBusMessageIter())
        dbus_message_iter_init_append(message, iter)
        for value in values {
            try write(value, into: iter)
        }
    }

    private static func basic<T>(_ iter: UnsafeMutablePointer<DBusMessageIter>, _ type: Int32, _ value: T) throws {
        var copy = value
        let ok = withUnsafePointer(to: &copy) { dbus_message_iter_append_basic(iter, type, $0) }
        if ok == 0 { throw DBusError.outOfMemory }
    }

    private static func text(_ iter: UnsafeMutablePointer<DBusMessageIter>, _ type: Int32, _ string: String) throws {
        let ok = string.withCString { cString -> dbus_bool_t in
            var pointer: UnsafePointer<CChar>? = cString
            return dbus_message_iter_append_basic(iter, type, &pointer)
        }
        if ok == 0 { throw DBusError.outOfMemory }
    }

    /// Opens a container, runs `body` on it, and closes it (or abandons it if `body` throws).
    private static func container(
        _ iter: UnsafeMutablePointer<DBusMessageIter>, _ type: Int32, _ contained: String?,
        _ body: (UnsafeMutablePointer<DBusMessageIter>) throws -> Void
    ) throws {
        let sub = UnsafeMutablePointer<DBusMessageIter>.allocate(capacity: 1)
        defer { sub.deallocate() }
        sub.initialize(to: DBusMessageIter())
        let opened: dbus_bool_t
        if let contained {
            opened = contained.withCString { dbus_message_iter_open_container(iter, type, $0, sub) }
        } else {
            opened = dbus_message_iter_open_container(iter, type, nil, sub)
        }
        if opened == 0 { throw DBusError.outOfMemory }
        do {
            try body(sub)
        } catch {
            dbus_message_iter_abandon_container(iter, sub)
            throw error
        }
        if dbus_message_iter_close_container(iter, sub) == 0 { throw DBusError.outOfMemory }
    }

    private static func write(_ value: DBusValue, into iter: UnsafeMutablePointer<DBusMessageIter>) throws {
        switch value {
        case .byte(let v): try basic(iter, CDBUS_TYPE_BYTE, v)
        case .boolean(let v): try basic(iter, CDBUS_TYPE_BOOLEAN, dbus_bool_t(v ? 1 : 0))
        case .int16(let v): try basic(iter, CDBUS_TYPE_INT16, v)
        case .uint16(let v): try basic(iter, CDBUS_TYPE_UINT16, v)
        case .int32(let v): try basic(iter, CDBUS_TYPE_INT32, v)
        case .uint32(let v): try basic(iter, CDBUS_TYPE_UINT32, v)
        case .int64(let v): try basic(iter, CDBUS_TYPE_INT64, v)
        case .uint64(let v): try basic(iter, CDBUS_TYPE_UINT64, v)
        case .double(let v): try basic(iter, CDBUS_TYPE_DOUBLE, v)
        case .string(let s): try text(iter, CDBUS_TYPE_STRING, s)
        case .objectPath(let p): try text(iter, CDBUS_TYPE_OBJECT_PATH, p.rawValue)
        case .signature(let g): try text(iter, CDBUS_TYPE_SIGNATURE, g.rawValue)
        case .array(let element, let items):
            try container(iter, CDBUS_TYPE_ARRAY, element.rawValue) { sub in
                for item in items { try write(item, into: sub) }
            }
        case .dictionary(let key, let valueType, let entries):
            try container(iter, CDBUS_TYPE_ARRAY, "{" + key.rawValue + valueType.rawValue + "}") { array in
                for entry in entries {
                    try container(array, CDBUS_TYPE_DICT_ENTRY, nil) { pair in
                        try write(entry.key, into: pair)
                        try write(entry.value, into: pair)
                    }
                }
            }
        case .struct(let fields):
            try container(iter, CDBUS_TYPE_STRUCT, nil) { sub in
                for field in fields { try write(field, into: sub) }
            }
        case .variant(let inner):
            try container(iter, CDBUS_TYPE_VARIANT, inner.signature.rawValue) { sub in
                try write(inner, into: sub)
            }
        }
    }
}
