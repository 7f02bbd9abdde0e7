import CDBus

/// Routing of incoming method calls to exported objects, on the bus thread.
extension ConnectionCore {
    func dispatchMethodCall(_ message: Message) {
        let path = DBusObjectPath(unchecked: message.path ?? "/")
        let member = message.member ?? ""
        let (object, children) = state.withLock { s in
            (s.objects[path], ExportedObject.children(of: path, in: s.objects.keys))
        }
        let fail = { (error: DBusError) in self.reply(to: message, with: .failure(error)) }

        guard let object else {
            // Parent nodes of exported objects can be introspected, so tools can walk the tree.
            let introspecting = member == "Introspect" &&
                (message.interface == nil || message.interface == StandardInterfaces.introspectable)
            if introspecting, !children.isEmpty || path == .root {
                reply(to: message, with: .success([.string(Introspection.xml(for: nil, children: children))]))
            } else {
                fail(DBusError(name: DBusError.Name.unknownObject, message: "no object is exported at \(path)"))
            }
            return
        }

        let interfaceName = message.interface
            ?? object.interfaces.first(where: { $0.method(named: member) != nil })?.name
            ?? StandardInterfaces.interface(forMember: member)
        guard let interfaceName else {
            fail(DBusError(name: DBusError.Name.unknownMethod, message: "no method \(member) on the object at \(path)"))
            return
        }
        switch interfaceName {
        case StandardInterfaces.introspectable:
            serveIntrospectable(message, member: member, object: object, children: children)
        case StandardInterfaces.properties:
            serveProperties(message, member: member, object: object)
        case StandardInterfaces.peer:
            servePeer(message, member: member)
        default:
            guard let interface = object.interface(named: interfaceName) else {
                fail(DBusError(name: DBusError.Name.unknownInterface,
                               message: "the object at \(path) has no interface \(interfaceName)"))
                return
            }
            guard let method = interface.method(named: member) else {
                fail(DBusError(name: DBusError.Name.unknownMethod,
                               message: "interface \(interfaceName) at \(path) has no method \(member)"))
                return
            }
            invoke(method, of: interface, message: message, path: path)
        }
    }

    /// Checks the arguments and runs a handler, giving it a reply handle.
    private func invoke(_ method: DBusMethod, of interface: DBusInterface, message: Message, path: DBusObjectPath) {
        let qualified = "\(interface.name).\(method.name)"
        guard let arguments = checkedArguments(message, expected: method.inSignature, qualified: qualified) else { return }
        let call = DBusMethodCall(sender: message.sender ?? "", path: path, interface: interface.name,
                                  member: method.name, arguments: arguments)
        let reply = DBusDeferredReply(core: self, call: message, member: qualified, outSignature: method.outSignature)
        switch method.body {
        case .sync(let handler):
            do { reply.succeed(try handler(call)) } catch { reply.fail(error) }
        case .async(let handler):
            Task {
                do { reply.succeed(try await handler(call)) } catch { reply.fail(error) }
            }
        case .deferred(let handler):
            handler(call, reply)
        }
    }

    /// The call's arguments if its signature is `expected`; otherwise replies `InvalidArgs` and returns nil.
    private func checkedArguments(_ message: Message, expected: DBusSignature, qualified: String) -> [DBusValue]? {
        let received = message.signature
        guard received == expected else {
            reply(to: message, with: .failure(.invalidArgs(
                "\(qualified) expects arguments of type '\(expected)' but received '\(received)'")))
            return nil
        }
        do {
            return try message.readArguments()
        } catch {
            reply(to: message, with: .failure(DBusError(describing: error)))
            return nil
        }
    }

    private func unknownMethod(_ message: Message, _ interface: String, _ member: String) {
        reply(to: message, with: .failure(DBusError(name: DBusError.Name.unknownMethod,
                                                    message: "interface \(interface) has no method \(member)")))
    }

    // MARK: org.freedesktop.DBus.Introspectable

    private func serveIntrospectable(_ message: Message, member: String, object: ExportedObject, children: [String]) {
        guard member == "Introspect" else { return unknownMethod(message, StandardInterfaces.introspectable, member) }
        guard checkedArguments(message, expected: .empty, qualified: "Introspect") != nil else { return }
        reply(to: message, with: .success([.string(Introspection.xml(for: object, children: children))]))
    }

    // MARK: org.freedesktop.DBus.Peer (libdbus answers these itself; this is the fallback)

    private func servePeer(_ message: Message, member: String) {
        switch member {
        case "Ping":
            guard checkedArguments(message, expected: .empty, qualified: "Ping") != nil else { return }
            reply(to: message, with: .success([]))
        case "GetMachineId":
            guard checkedArguments(message, expected: .empty, qualified: "GetMachineId") != nil else { return }
            let error = LibDBusError()
            if let id = dbus_try_get_local_machine_id(error.pointer) {
                let text = String(cString: id)
                dbus_free(id)
                reply(to: message, with: .success([.string(text)]))
            } else {
                reply(to: message, with: .failure(error.error ?? .failed("no machine id")))
            }
        default:
            unknownMethod(message, StandardInterfaces.peer, member)
        }
    }

    // MARK: org.freedesktop.DBus.Properties

    private func serveProperties(_ message: Message, member: String, object: ExportedObject) {
        DBusPropertyRead.$current.withValue(DBusPropertyRead()) { servePropertiesCall(message, member: member, object: object) }
    }

    private func servePropertiesCall(_ message: Message, member: String, object: ExportedObject) {
        switch member {
        case "Get":
            guard let args = checkedArguments(message, expected: "ss", qualified: "Properties.Get") else { return }
            reply(to: message, with: Result {
                let property = try Self.property(args[1].stringValue ?? "", in: args[0].stringValue ?? "", of: object)
                return [.variant(try Self.read(property))]
            }.mapError { DBusError(describing: $0) })
        case "GetAll":
            guard let args = checkedArguments(message, expected: "s", qualified: "Properties.GetAll") else { return }
            reply(to: message, with: Result {
                let name = args[0].stringValue ?? ""
                let interfaces = name.isEmpty ? object.interfaces : [try Self.interface(name, of: object)]
                var entries: [DBusDictEntry] = []
                for interface in interfaces {
                    // A property whose getter fails is left out rather than hiding all the others.
                    for property in interface.properties {
                        guard let value = try? Self.read(property) else { continue }
                        entries.append(DBusDictEntry(.string(property.name), .variant(value)))
                    }
                }
                return [.dictionary(key: "s", value: "v", entries)]
            }.mapError { DBusError(describing: $0) })
        case "Set":
            guard let args = checkedArguments(message, expected: "ssv", qualified: "Properties.Set") else { return }
            var changed: (DBusInterface, DBusProperty)?
            let result = Result { () throws -> [DBusValue] in
                let interfaceName = args[0].stringValue ?? ""
                let name = args[1].stringValue ?? ""
                let property = try Self.property(name, in: interfaceName, of: object)
                guard let set = property.setter else {
                    throw DBusError(name: DBusError.Name.propertyReadOnly, message: "property \(name) is read-only")
                }
                let value = args[2].variantValue ?? args[2]
                guard value.signature == property.signature else {
                    throw DBusError.invalidArgs(
                        "property \(name) has type '\(property.signature)' but the value given has type '\(value.signature)'")
                }
                try set(value)
                let owner = interfaceName.isEmpty
                    ? object.interfaces.first { $0.property(named: name) != nil }!
                    : try Self.interface(interfaceName, of: object)
                changed = (owner, property)
                return []
            }.mapError { DBusError(describing: $0) }
            reply(to: message, with: result)
            if let (interface, property) = changed {
                try? emitPropertiesChanged(path: object.path, interface: interface, names: [property.name])
            }
        default:
            unknownMethod(message, StandardInterfaces.properties, member)
        }
    }

    private static func interface(_ name: String, of object: ExportedObject) throws -> DBusInterface {
        guard let interface = object.interface(named: name) else {
            throw DBusError(name: DBusError.Name.unknownInterface,
                            message: "the object at \(object.path) has no interface \(name)")
        }
        return interface
    }

    private static func property(_ name: String, in interfaceName: String, of object: ExportedObject) throws -> DBusProperty {
        if interfaceName.isEmpty {
            for interface in object.interfaces {
                if let property = interface.property(named: name) { return property }
            }
            throw DBusError(name: DBusError.Name.unknownProperty, message: "the object at \(object.path) has no property \(name)")
        }
        let interface = try interface(interfaceName, of: object)
        guard let property = interface.property(named: name) else {
            throw DBusError(name: DBusError.Name.unknownProperty, message: "interface \(interfaceName) has no property \(name)")
        }
        return property
    }

    /// Runs a getter and checks that its value has the declared type.
    static func read(_ property: DBusProperty) throws -> DBusValue {
        let value = try property.getter()
        guard value.signature == property.signature else {
            throw DBusError.failed(
                "property \(property.name) is declared '\(property.signature)' but its getter returned '\(value.signature)'")
        }
        return value
    }

    /// Emits `PropertiesChanged` for the named properties of an exported interface.
    func emitPropertiesChanged(path: DBusObjectPath, interface: DBusInterface, names: [String]) throws {
        var changed: [DBusDictEntry] = []
        var invalidated: [DBusValue] = []
        for name in names {
            guard let property = interface.property(named: name) else {
                throw DBusError(name: DBusError.Name.unknownProperty, message: "interface \(interface.name) has no property \(name)")
            }
            switch property.changeNotification {
            case .value: changed.append(DBusDictEntry(.string(name), .variant(try Self.read(property))))
            case .invalidates: invalidated.append(.string(name))
            case .none, .constant: continue
            }
        }
        guard !changed.isEmpty || !invalidated.isEmpty else { return }
        let signal = try Message.signal(path: path, interface: StandardInterfaces.properties, member: "PropertiesChanged")
        try signal.append([.string(interface.name), .dictionary(key: "s", value: "v", changed), .array("s", invalidated)])
        try send(signal)
    }
}
