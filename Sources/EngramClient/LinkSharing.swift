import DBus
import EngramCore

/// Sends a link to a phone or computer paired through KDE Connect (`kdeconnectd`) or GSConnect, over their
/// D-Bus interfaces on the session bus.
///
/// - KDE Connect: `org.kde.kdeconnect.daemon.devices(onlyReachable, onlyPaired) → as` at `/modules/kdeconnect`;
///   each device's `name` property (`org.kde.kdeconnect.device` at `/modules/kdeconnect/devices/<id>`); the share
///   plugin's `org.kde.kdeconnect.device.share.shareUrl(s)` at `/modules/kdeconnect/devices/<id>/share`.
/// - GSConnect: `org.freedesktop.DBus.ObjectManager.GetManagedObjects` at `/org/gnome/Shell/Extensions/GSConnect`
///   lists devices (`org.gnome.Shell.Extensions.GSConnect.Device` with `Name`, `Connected`, `Paired`); a device's
///   `org.gtk.Actions.Activate("shareUri", [<url>], {})` sends the link.
public final class LinkSharing: Sendable {
    /// A paired device that can receive a link now.
    public struct Device: Sendable, Equatable {
        public enum Via: String, Sendable { case kdeConnect = "KDE Connect", gsConnect = "GSConnect" }
        public var id: String
        public var name: String
        public var via: Via
    }

    static let kdeName = "org.kde.kdeconnect"
    static let kdePath: DBusObjectPath = "/modules/kdeconnect"
    static let gsName = "org.gnome.Shell.Extensions.GSConnect"
    static let gsPath: DBusObjectPath = "/org/gnome/Shell/Extensions/GSConnect"
    static let gsDevice = "org.gnome.Shell.Extensions.GSConnect.Device"

    private let connection: DBusConnection

    /// Connects to the session bus; throws when there is none.
    public init() throws {
        connection = try DBusConnection(bus: .session)
    }

    deinit { connection.close() }

    /// The reachable paired devices of KDE Connect and GSConnect (whichever run); empty when neither runs or
    /// none is reachable.
    public func devices() -> [Device] {
        kdeConnectDevices() + gsConnectDevices()
    }

    /// Whether KDE Connect or GSConnect runs on this bus.
    public var serviceRuns: Bool {
        [Self.kdeName, Self.gsName].contains { (try? connection.nameOwner($0)) != nil }
    }

    func kdeConnectDevices() -> [Device] {
        guard (try? connection.nameOwner(Self.kdeName)) != nil,
              let ids = try? connection.call(destination: Self.kdeName, path: Self.kdePath, interface: "org.kde.kdeconnect.daemon",
                                             method: "devices", arguments: [.boolean(true), .boolean(true)], timeout: .seconds(5))
                .first?.stringArrayValue else { return [] }
        return ids.compactMap { id in
            guard let path = try? DBusObjectPath(validating: "/modules/kdeconnect/devices/\(id)") else { return nil }
            let name = (try? connection.call(destination: Self.kdeName, path: path, interface: "org.freedesktop.DBus.Properties",
                                             method: "Get", arguments: [.string("org.kde.kdeconnect.device"), .string("name")],
                                             timeout: .seconds(5)).first?.unwrapped.stringValue) ?? id
            return Device(id: id, name: name ?? id, via: .kdeConnect)
        }
    }

    func gsConnectDevices() -> [Device] {
        guard (try? connection.nameOwner(Self.gsName)) != nil,
              let objects = try? connection.call(destination: Self.gsName, path: Self.gsPath, interface: "org.freedesktop.DBus.ObjectManager",
                                                 method: "GetManagedObjects", timeout: .seconds(5)).first?.dictionaryEntries else { return [] }
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

    /// Sends `url` to `device`.
    public func send(_ url: String, to device: Device) throws {
        switch device.via {
        case .kdeConnect:
            _ = try connection.call(destination: Self.kdeName, path: try DBusObjectPath(validating: "/modules/kdeconnect/devices/\(device.id)/share"),
                                    interface: "org.kde.kdeconnect.device.share", method: "shareUrl", arguments: [.string(url)],
                                    timeout: .seconds(10))
        case .gsConnect:
            _ = try connection.call(destination: Self.gsName, path: try DBusObjectPath(validating: Self.gsPath.rawValue + "/Device/\(device.id)"),
                                    interface: "org.gtk.Actions", method: "Activate",
                                    arguments: [.string("shareUri"), .array("v", [.variant(.string(url))]),
                                                .dictionary(key: "s", value: "v", [])],
                                    timeout: .seconds(10))
        }
    }

    /// Sends `url` to the device named `name` (a device's name or id, any case), or to the only reachable device
    /// when nil; returns the device.
    @discardableResult
    public func send(_ url: String, toDeviceNamed name: String?) throws -> Device {
        let all = devices()
        guard !all.isEmpty else {
            throw EngramError.notFound(serviceRuns
                ? "no paired device is reachable through KDE Connect or GSConnect; is the phone on the same network?"
                : "neither KDE Connect nor GSConnect runs on this session bus; install and pair one (kdeconnectd, or the GSConnect GNOME extension) to send links")
        }
        let device: Device
        if let name {
            guard let d = all.first(where: { $0.id == name || $0.name.caseInsensitiveCompare(name) == .orderedSame }) else {
                throw EngramError.notFound("no reachable paired device named '\(name)'; reachable: \(all.map(\.name).joined(separator: ", "))")
            }
            device = d
        } else {
            guard all.count == 1 else {
                throw EngramError.invalidInput("several devices are reachable (\(all.map(\.name).joined(separator: ", "))); choose one with --device NAME")
            }
            device = all[0]
        }
        try send(url, to: device)
        return device
    }
}
