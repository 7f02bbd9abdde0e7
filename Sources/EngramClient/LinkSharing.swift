import DBus
import EngramCore

/// Sends a link to a phone or computer paired through KDE Connect (`kdeconnectd`, `LinkSharing+KDEConnect.swift`)
/// or GSConnect (`LinkSharing+GSConnect.swift`), over their D-Bus interfaces on the session bus.
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

    let connection: DBusConnection

    /// Connects to the session bus; throws when there is none.
    public init() throws {
        connection = try DBusConnection(bus: .session)
    }

    deinit { connection.close() }

    /// The reachable paired devices of KDE Connect and GSConnect (whichever run); empty when neither runs or
    /// none is reachable. Throws when none was found and a service that runs did not answer (its error, not "no
    /// device", is what the person needs to hear).
    public func devices() throws -> [Device] {
        var found: [Device] = []
        var failures: [String] = []
        for (via, list) in [(Device.Via.kdeConnect, kdeConnectDevices), (.gsConnect, gsConnectDevices)] {
            do { found += try list() } catch { failures.append("\(via.rawValue) did not list its devices: \(error)") }
        }
        if found.isEmpty, !failures.isEmpty { throw EngramError.io(failures.joined(separator: "; ")) }
        return found
    }

    /// Whether KDE Connect or GSConnect runs on this bus.
    public var serviceRuns: Bool {
        [Self.kdeName, Self.gsName].contains { (try? connection.nameOwner($0)) != nil }
    }

    /// Sends `url` to `device`.
    public func send(_ url: String, to device: Device) throws {
        switch device.via {
        case .kdeConnect: try kdeConnectShare(url, device.id)
        case .gsConnect: try gsConnectShare(url, device.id)
        }
    }

    /// Sends `url` to the device named `name` (a device's name or id, any case), or to the only reachable device
    /// when nil; returns the device.
    @discardableResult
    public func send(_ url: String, toDeviceNamed name: String?) throws -> Device {
        let all = try devices()
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
