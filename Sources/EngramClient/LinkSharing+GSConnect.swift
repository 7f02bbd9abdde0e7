import DBus
import EngramCore

/// GSConnect's service (`org.gnome.Shell.Extensions.GSConnect`):
///
///     /org/gnome/Shell/Extensions/GSConnect              org.freedesktop.DBus.ObjectManager  GetManagedObjects() → a{oa{sa{sv}}}
///     /org/gnome/Shell/Extensions/GSConnect/Device/<id>  org.gnome.Shell.Extensions.GSConnect.Device  Name, Connected, Paired
///                                                        org.gtk.Actions  Activate(s "shareUri", av [<url>], a{sv} {})
extension LinkSharing {
    /// The connected paired devices; empty when GSConnect does not run; throws when it runs but does not answer.
    func gsConnectDevices() throws -> [Device] {
        guard (try? connection.nameOwner(Self.gsName)) != nil else { return [] }
        let reply = try connection.call(destination: Self.gsName, path: Self.gsPath, interface: "org.freedesktop.DBus.ObjectManager",
                                        method: "GetManagedObjects", timeout: .seconds(5))
        guard let objects = reply.first?.dictionaryEntries else {
            throw EngramError.io("GSConnect answered GetManagedObjects with something other than a dictionary of objects")
        }
        return objects.compactMap { entry in
            guard let path = entry.key.stringValue,
                  let props = entry.value.dictionaryEntries?.first(where: { $0.key.stringValue == Self.gsDevice })?.value.dictionaryValue
            else { return nil }
            let flag = { (key: String) in props[key]?.unwrapped.boolValue ?? false }
            guard flag("Connected"), flag("Paired") else { return nil }
            let id = String(path.split(separator: "/").last ?? "")
            return Device(id: id, name: props["Name"]?.unwrapped.stringValue ?? id, via: .gsConnect)
        }.sorted { $0.name < $1.name }
    }

    func gsConnectShare(_ url: String, _ id: String) throws {
        _ = try connection.call(destination: Self.gsName, path: try DBusObjectPath(validating: Self.gsPath.rawValue + "/Device/\(id)"),
                                interface: "org.gtk.Actions", method: "Activate",
                                arguments: [.string("shareUri"), .array("v", [.variant(.string(url))]), .dictionary(key: "s", value: "v", [])],
                                timeout: .seconds(10))
    }
}
