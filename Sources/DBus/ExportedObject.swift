/// An object path with the interfaces registered on it.
struct ExportedObject: Sendable {
    /// Where the object lives.
    let path: DBusObjectPath
    /// Its interfaces, in registration order.
    var interfaces: [DBusInterface]

    /// The interface with this name, if the object has it.
    func interface(named name: String) -> DBusInterface? {
        interfaces.first { $0.name == name }
    }

    /// The names of the nodes directly below `path`, among the given exported paths.
    static func children(of path: DBusObjectPath, in paths: some Sequence<DBusObjectPath>) -> [String] {
        let prefix = path.rawValue == "/" ? "/" : path.rawValue + "/"
        var names = Set<String>()
        for other in paths where other != path && other.rawValue.hasPrefix(prefix) {
            if let first = other.rawValue.dropFirst(prefix.count).split(separator: "/").first {
                names.insert(String(first))
            }
        }
        return names.sorted()
    }
}
