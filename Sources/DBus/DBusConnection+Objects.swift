extension DBusConnection {
    /// Serves `interfaces` at `path`, alongside the standard Introspectable, Properties and Peer interfaces.
    ///
    /// Throws if a name or signature in the tables is invalid, or if `path` is already exported.
    public func export(_ interfaces: [DBusInterface], at path: DBusObjectPath) throws {
        try path.validate()
        var names = Set<String>()
        for interface in interfaces {
            try interface.validate()
            guard names.insert(interface.name).inserted else {
                throw DBusError.invalidArgs("interface \(interface.name) is listed twice for \(path)")
            }
        }
        try core.withLiveConnection { _, s in
            guard s.objects[path] == nil else {
                throw DBusError.invalidArgs("an object is already exported at \(path); unexport it first")
            }
            s.objects[path] = ExportedObject(path: path, interfaces: interfaces)
        }
    }

    /// Serves one interface at `path`.
    public func export(_ interface: DBusInterface, at path: DBusObjectPath) throws {
        try export([interface], at: path)
    }

    /// Stops serving the object at `path`; calls to it then get `UnknownObject`.
    public func unexport(_ path: DBusObjectPath) {
        core.state.withLock { _ = $0.objects.removeValue(forKey: path) }
    }

    /// The paths currently exported.
    public var exportedPaths: [DBusObjectPath] {
        core.state.withLock { $0.objects.keys.sorted() }
    }

    /// Announces that properties of an exported interface changed, reading their new values from the getters.
    ///
    /// Properties declared `.invalidates` are listed without values; `.none` and `.constant` ones are skipped.
    public func emitPropertiesChanged(path: DBusObjectPath, interface: String, properties names: [String]) throws {
        let table = core.state.withLock { $0.objects[path]?.interface(named: interface) }
        guard let table else {
            throw DBusError(name: DBusError.Name.unknownInterface, message: "no interface \(interface) is exported at \(path)")
        }
        try core.emitPropertiesChanged(path: path, interface: table, names: names)
    }
}
