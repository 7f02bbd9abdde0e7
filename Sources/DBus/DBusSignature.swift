import CDBus

/// A D-Bus type signature such as `s`, `as`, `a{sv}` or `(sssida{sv})`.
///
/// String literals are accepted unchecked so tables read naturally; every signature is
/// validated with libdbus before it is used to export an object or write a message.
public struct DBusSignature: Sendable, Hashable, Comparable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The signature text.
    public let rawValue: String

    /// Creates a signature from text, throwing `InvalidSignature` if libdbus rejects it.
    public init(validating rawValue: String) throws {
        self.rawValue = rawValue
        try validate()
    }

    /// Creates a signature from a literal; it is validated where it is used.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// Creates a signature without validating it.
    init(unchecked rawValue: String) {
        self.rawValue = rawValue
    }

    /// The empty signature: no values at all.
    public static let empty = DBusSignature(unchecked: "")

    /// The signature text.
    public var description: String { rawValue }

    /// Orders signatures by their text.
    public static func < (lhs: DBusSignature, rhs: DBusSignature) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Whether libdbus accepts the signature (any number of complete types, at most 255 bytes).
    public var isValid: Bool {
        guard !rawValue.utf8.contains(0) else { return false }
        return rawValue.withCString { dbus_signature_validate($0, nil) != 0 }
    }

    /// Whether the signature is exactly one complete type, such as `a{sv}` but not `ss`.
    public var isSingleCompleteType: Bool {
        guard !rawValue.isEmpty, !rawValue.utf8.contains(0) else { return false }
        return rawValue.withCString { dbus_signature_validate_single($0, nil) != 0 }
    }

    /// Throws `InvalidSignature`, saying why, if libdbus rejects the signature.
    public func validate() throws {
        if rawValue.utf8.contains(0) {
            throw DBusError(name: DBusError.Name.invalidSignature,
                            message: "signature '\(rawValue)' contains a NUL byte")
        }
        let error = LibDBusError()
        if rawValue.withCString({ dbus_signature_validate($0, error.pointer) }) == 0 {
            let reason = error.error?.message ?? "it is malformed"
            throw DBusError(name: DBusError.Name.invalidSignature,
                            message: "'\(rawValue)' is not a valid D-Bus signature: \(reason)")
        }
    }

    /// Throws `InvalidSignature` unless the signature is exactly one complete type.
    func validateSingle(_ what: @autoclosure () -> String) throws {
        try validate()
        if !isSingleCompleteType {
            throw DBusError(name: DBusError.Name.invalidSignature,
                            message: "\(what()) must be a single complete type, but '\(rawValue)' is not")
        }
    }

    /// The signature split into its complete types: `sa{sv}i` gives `s`, `a{sv}`, `i`.
    public var completeTypes: [DBusSignature] {
        let bytes = Array(rawValue.utf8)
        var result: [DBusSignature] = []
        var start = 0
        while start < bytes.count {
            guard let end = Self.endOfCompleteType(bytes, from: start) else { break }
            result.append(DBusSignature(unchecked: String(decoding: bytes[start..<end], as: UTF8.self)))
            start = end
        }
        return result
    }

    /// Whether the signature is one basic type (one of `ybnqiuxtdsogh`), the only kind a dictionary key may be.
    public var isBasic: Bool {
        rawValue.utf8.count == 1 && Self.basicCodes.contains(rawValue.utf8.first!)
    }

    /// Joins signatures end to end.
    public static func + (lhs: DBusSignature, rhs: DBusSignature) -> DBusSignature {
        DBusSignature(unchecked: lhs.rawValue + rhs.rawValue)
    }

    static let basicCodes: Set<UInt8> = Set("ybnqiuxtdsogh".utf8)

    /// The index just past the complete type that starts at `start`, or nil if it is malformed.
    static func endOfCompleteType(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        // Arrays prefix their element type.
        while index < bytes.count, bytes[index] == UInt8(ascii: "a") { index += 1 }
        guard index < bytes.count else { return nil }
        let code = bytes[index]
        if basicCodes.contains(code) || code == UInt8(ascii: "v") { return index + 1 }
        let close: UInt8
        switch code {
        case UInt8(ascii: "("): close = UInt8(ascii: ")")
        case UInt8(ascii: "{"): close = UInt8(ascii: "}")
        default: return nil
        }
        index += 1
        while index < bytes.count, bytes[index] != close {
            guard let next = endOfCompleteType(bytes, from: index) else { return nil }
            index = next
        }
        return index < bytes.count ? index + 1 : nil
    }
}
