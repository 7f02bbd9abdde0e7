import DBus

/// A GIcon in the serialized form `g_icon_deserialize` reads, as GNOME Shell's `icon` meta expects.
public enum GIcon: Sendable, Equatable {
    /// Themed icon names, best first: `('themed', <['text-x-generic', 'text-x-generic-symbolic']>)`.
    case themed([String])
    /// An icon file: `('file', <'/usr/share/…/x.png'>)`.
    case file(String)

    /// The serialized value, to be sent inside the meta's variant.
    public var serialized: DBusValue {
        switch self {
        case .themed(let names): .struct([.string("themed"), .variant(.strings(names))])
        case .file(let path): .struct([.string("file"), .variant(.string(path))])
        }
    }
}
