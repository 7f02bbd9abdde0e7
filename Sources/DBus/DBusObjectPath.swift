import CDBus

/// A D-Bus object path such as `/org/engram/Engram`.
///
/// String literals are accepted unchecked; paths are validated before they reach libdbus.
public struct DBusObjectPath: Sendable, Hashable, Comparable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The path text.
    public let rawValue: String

    /// Creates a path from text, throwing `InvalidArgs` if it is not a valid object path.
    public init(validating rawValue: String) throws {
        self.rawValue = rawValue
        try validate()
    }

    /// Creates a path from a literal; it is validated where it is used.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// Creates a path without validating it.
    init(unchecked rawValue: String) {
        self.rawValue = rawValue
    }

    /// The root path `/`.
    public static let root = DBusObjectPath(unchecked: "/")

    /// The path text.
    public var description: String { rawValue }

    /// Orders paths by their text.
    public static func < (lhs: DBusObjectPath, rhs: DBusObjectPath) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Whether the text is a valid object path (`/`, or `/`-separated `[A-Za-z0-9_]` elements).
    public var isValid: Bool { DBusNames.isValid(rawValue, dbus_validate_path) }

    /// Throws `InvalidArgs`, saying why, if the path is not valid.
    public func validate() throws {
        try DBusNames.validate(rawValue, kind: "object path", dbus_validate_path)
    }

    /// The path's elements: `/org/engram` gives `org`, `engram`; `/` gives none.
    public var elements: [Substring] {
        rawValue.split(separator: "/", omittingEmptySubsequences: true)
    }

    /// Whether `other` lies strictly below this path.
    public func isAncestor(of other: DBusObjectPath) -> Bool {
        if rawValue == "/" { return other.rawValue != "/" }
        return other.rawValue.hasPrefix(rawValue + "/")
    }

    /// Whether this path is `namespace` or lies below it (the match-rule `path_namespace` test).
    public func isInNamespace(_ namespace: DBusObjectPath) -> Bool {
        self == namespace || namespace.isAncestor(of: self)
    }
}
