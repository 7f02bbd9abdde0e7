import CDBus

/// Checks that a value can be written to a message exactly as it is.
///
/// libdbus aborts the process on a type mismatch, an invalid string or path, and the bus
/// disconnects a peer that sends nesting deeper than 64; so every value is checked first
/// and a mistake becomes a thrown `InvalidArgs` instead.
extension DBusValue {
    /// The deepest container nesting (arrays, structs, dict entries and variants) a message may carry.
    public static let maximumNestingDepth = 64

    /// Throws `InvalidArgs` naming the first problem that would stop `values` from being sent.
    static func validateForWriting(_ values: [DBusValue]) throws {
        for (index, value) in values.enumerated() {
            do {
                try value.validate(depth: 0)
            } catch let error as DBusError {
                throw DBusError(name: error.name, message: "argument \(index): \(error.message)")
            }
        }
        let signature = DBusValue.signature(of: values)
        if !signature.isValid {
            try signature.validate()
        }
    }

    /// Validates this value found at container depth `depth`.
    private func validate(depth: Int) throws {
        switch self {
        case .byte, .boolean, .int16, .uint16, .int32, .uint32, .int64, .uint64, .double:
            return
        case .string(let string):
            try Self.validateString(string)
        case .objectPath(let path):
            try path.validate()
        case .signature(let signature):
            try signature.validate()
        case .array(let element, let items):
            try Self.checkDepth(depth + 1)
            try element.validateSingle("an array's element type")
            if element.rawValue.first == "{" {
                throw DBusError.invalidArgs("use .dictionary for an array of dict entries ('a\(element)')")
            }
            for (index, item) in items.enumerated() {
                let found = item.signature
                if found != element {
                    throw DBusError.invalidArgs(
                        "array element \(index) has type '\(found)' but the array holds '\(element)'")
                }
                try item.validate(depth: depth + 1)
            }
        case .dictionary(let key, let value, let entries):
            try Self.checkDepth(depth + 2)
            if !key.isBasic || key == "h" {
                throw DBusError.invalidArgs("a dictionary key must be a basic type, not '\(key)'")
            }
            try value.validateSingle("a dictionary's value type")
            for (index, entry) in entries.enumerated() {
                if entry.key.signature != key {
                    throw DBusError.invalidArgs(
                        "dictionary key \(index) has type '\(entry.key.signature)' but the keys are '\(key)'")
                }
                if entry.value.signature != value {
                    throw DBusError.invalidArgs(
                        "dictionary value \(index) has type '\(entry.value.signature)' but the values are '\(value)'")
                }
                try entry.key.validate(depth: depth + 2)
                try entry.value.validate(depth: depth + 2)
            }
        case .struct(let fields):
            try Self.checkDepth(depth + 1)
            if fields.isEmpty {
                throw DBusError.invalidArgs("a struct needs at least one field")
            }
            for field in fields { try field.validate(depth: depth + 1) }
        case .variant(let inner):
            try Self.checkDepth(depth + 1)
            try inner.validate(depth: depth + 1)
        }
    }

    private static func checkDepth(_ depth: Int) throws {
        if depth > maximumNestingDepth {
            throw DBusError.invalidArgs(
                "values are nested more than \(maximumNestingDepth) containers deep, which D-Bus does not allow")
        }
    }

    /// Throws `InvalidArgs` if the string has a NUL byte or libdbus would reject its UTF-8.
    static func validateString(_ string: String) throws {
        if string.utf8.contains(0) {
            throw DBusError.invalidArgs("a D-Bus string cannot contain a NUL byte: \(string.debugDescription)")
        }
        let ok = string.withCString { dbus_validate_utf8($0, nil) != 0 }
        if !ok {
            throw DBusError.invalidArgs("libdbus rejects the UTF-8 of \(string.debugDescription)")
        }
    }
}
