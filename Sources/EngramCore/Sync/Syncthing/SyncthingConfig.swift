import Foundation

/// Where the running Syncthing's REST API is and the key it accepts, read from its `config.xml`.
public struct SyncthingConfig: Sendable, Equatable {
    /// Host and port of the GUI/REST address, always a loopback address (`127.0.0.1:8384`).
    public var address: String
    /// The API key (`<gui><apikey>`).
    public var apiKey: String
    /// The config file read.
    public var path: String

    /// The directories Syncthing keeps its config in, in the order it looks: `$STHOMEDIR` (its `--home`), the
    /// state directory (Syncthing 1.27 and later), then the config directory (Debian 12's 1.19.2).
    public static func candidates(_ env: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        let home = env["HOME"] ?? NSHomeDirectory()
        var dirs: [String] = []
        if let h = env["STHOMEDIR"], !h.isEmpty { dirs.append(h) }
        if let s = env["XDG_STATE_HOME"], !s.isEmpty { dirs.append(s + "/syncthing") }
        dirs.append(home + "/.local/state/syncthing")
        if let c = env["XDG_CONFIG_HOME"], !c.isEmpty { dirs.append(c + "/syncthing") }
        dirs.append(home + "/.config/syncthing")
        return dirs.map { $0 + "/config.xml" }
    }

    /// The config of this user's Syncthing, or an error that says how to get one.
    public static func find(_ env: [String: String] = ProcessInfo.processInfo.environment) throws -> SyncthingConfig {
        let paths = candidates(env)
        guard let path = paths.first(where: { FileManager.default.isReadableFile(atPath: $0) }) else {
            throw EngramError.notFound("no Syncthing config found (looked for \(paths.joined(separator: ", "))): "
                + "install Syncthing (`apt install syncthing`) and start it once with `systemctl --user start syncthing`")
        }
        let xml = try String(contentsOfFile: path, encoding: .utf8)
        return try parse(xml, path: path)
    }

    /// Reads the GUI address and API key from the text of a `config.xml`; refuses an address that is not on
    /// this machine's loopback (Engram sends the key only there) and HTTPS (it speaks plain HTTP on loopback).
    public static func parse(_ xml: String, path: String) throws -> SyncthingConfig {
        guard let gui = element("gui", in: xml) else {
            throw EngramError.config("\(path) has no <gui> section: Syncthing's REST API is off")
        }
        let open = gui.open
        guard let apiKey = element("apikey", in: gui.body)?.body.trimmingCharacters(in: .whitespacesAndNewlines), !apiKey.isEmpty else {
            throw EngramError.config("\(path) has no API key (<gui><apikey>): open Syncthing's web page once (Actions → Settings → GUI) to make one")
        }
        if open.contains(#"tls="true""#) {
            throw EngramError.config("Syncthing's GUI uses HTTPS (\(path)); Engram talks to it over plain HTTP on loopback: turn off \"Use HTTPS for GUI\"")
        }
        let raw = element("address", in: gui.body)?.body.trimmingCharacters(in: .whitespacesAndNewlines) ?? "127.0.0.1:8384"
        return SyncthingConfig(address: try loopback(raw, path: path), apiKey: apiKey, path: path)
    }

    /// `raw` as a loopback host:port: a wildcard host becomes 127.0.0.1; any other host must be 127.x or localhost.
    static func loopback(_ raw: String, path: String) throws -> String {
        var s = raw
        for scheme in ["http://", "https://"] where s.hasPrefix(scheme) { s.removeFirst(scheme.count) }
        guard let colon = s.lastIndex(of: ":"), !s.hasPrefix("/"), !s.hasPrefix("unix") else {
            throw EngramError.config("Syncthing's GUI address \(raw) (\(path)) is not host:port; Engram needs it on 127.0.0.1")
        }
        let host = String(s[..<colon]), port = String(s[s.index(after: colon)...])
        guard Int(port) != nil else { throw EngramError.config("Syncthing's GUI address \(raw) (\(path)) has no port") }
        switch host {
        case "", "0.0.0.0", "[::]", "localhost": return "127.0.0.1:" + port
        case _ where host.hasPrefix("127."): return host + ":" + port
        default:
            throw EngramError.config("Syncthing's GUI listens on \(raw) (\(path)), not on loopback; Engram sends the API key only to 127.0.0.x: set the GUI address to 127.0.0.1:\(port)")
        }
    }

    /// The first `<name …>…</name>` in `xml`: its opening tag and its body.
    static func element(_ name: String, in xml: String) -> (open: String, body: String)? {
        guard let start = xml.range(of: "<" + name + ">") ?? xml.range(of: "<" + name + " "),
              let openEnd = xml[start.lowerBound...].range(of: ">"),
              let close = xml[openEnd.upperBound...].range(of: "</" + name + ">") else { return nil }
        return (String(xml[start.lowerBound..<openEnd.upperBound]), String(xml[openEnd.upperBound..<close.lowerBound]))
    }
}
