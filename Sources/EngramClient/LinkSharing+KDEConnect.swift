import DBus
import EngramCore

/// KDE Connect's daemon (`org.kde.kdeconnect`):
///
///     /modules/kdeconnect                      org.kde.kdeconnect.daemon        devices(b onlyReachable, b onlyPaired) → as
///     /modules/kdeconnect/devices/<id>         org.kde.kdeconnect.device        property name: s
///     /modules/kdeconnect/devices/<id>/share   org.kde.kdeconnect.device.share  shareUrl(s url)
extension LinkSharing {
    /// The reachable paired devices; empty when KDE Connect does not run; throws when it runs but does not answer.
    func kdeConnectDevices() throws -> [Device] {
        guard (try? connection.nameOwner(Self.kdeName)) != nil else { return [] }
        let reply = try connection.call(destination: Self.kdeName, path: Self.kdePath, interface: "org.kde.kdeconnect.daemon",
                                        method: "devices", arguments: [.boolean(true), .boolean(true)], timeout: .seconds(5))
        guard let ids = reply.first?.stringArrayValue else {
            throw EngramError.io("KDE Connect answered its device list with something other than a list of ids")
        }
        return ids.compactMap { id in
            guard let path = try? DBusObjectPath(validating: "/modules/kdeconnect/devices/\(id)") else { return nil }
            let reply = try? connection.call(destination: Self.kdeName, path: path, interface: "org.freedesktop.DBus.Properties",
                                             method: "Get", arguments: [.string("org.kde.kdeconnect.device"), .string("name")],
                                             timeout: .seconds(5))
            let name = reply?.first?.unwrapped.stringValue ?? id
            return Device(id: id, name: name, via: .kdeConnect)
        }
    }

    func kdeConnectShare(_ url: String, _ id: String) throws {
        _ = try connection.call(destination: Self.kdeName, path: try DBusObjectPath(validating: "/modules/kdeconnect/devices/\(id)/share"),
                                interface: "org.kde.kdeconnect.device.share", method: "shareUrl", arguments: [.string(url)],
                                timeout: .seconds(10))
    }
}
