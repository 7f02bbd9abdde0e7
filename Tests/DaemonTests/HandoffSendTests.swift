import DBus
import EngramTestSupport
import Foundation
import Testing

/// `engram handoff send` against python-dbusmock objects impersonating kdeconnectd and GSConnect on a private bus:
/// the exact method each is sent and the link it carries.
@Suite(.serialized) struct HandoffSendTests {
    typealias D = DaemonFixture

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path

    /// A data folder with sync on and a session running, and a private bus with `templates` mocked on it.
    func withDevice(_ templates: [(String, String)], _ body: (PrivateBus, [String: String]) async throws -> Void) async throws {
        let base = NSTemporaryDirectory() + "engram-handoff-send-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: base) }
        try FileManager.default.createDirectory(atPath: base + "/config", withIntermediateDirectories: true)
        try "[sync]\nfolder = \"\(base)/shared\"\n".write(toFile: base + "/config/config.toml", atomically: true, encoding: .utf8)
        let bus = try await PrivateBus.start()
        defer { bus.stop() }
        var env = bus.environment
        env["ENGRAM_DATA_DIR"] = base + "/data"
        env["ENGRAM_CONFIG_DIR"] = base + "/config"
        let client = try bus.connect()
        defer { client.close() }
        for (template, parameters) in templates {
            try bus.spawn("/usr/bin/python3", ["-m", "dbusmock", "--template", Self.fixtures + "/" + template, "-p", parameters])
            let name = template == "kdeconnect.py" ? "org.kde.kdeconnect" : "org.gnome.Shell.Extensions.GSConnect"
            #expect(try await eventually { try client.nameOwner(name) != nil }, "\(template) did not start")
        }
        try await body(bus, env)
    }

    func engram(_ args: [String], _ env: [String: String]) throws -> Output {
        try Run.program(D.engramBinary, args, environment: env)
    }

    func calls(_ bus: PrivateBus, _ name: String, _ path: String, _ method: String) throws -> [[DBusValue]] {
        let client = try bus.connect()
        defer { client.close() }
        let reply = try client.call(destination: name, path: try DBusObjectPath(validating: path), interface: "org.freedesktop.DBus.Mock",
                                    method: "GetMethodCalls", arguments: [.string(method)], timeout: .seconds(10))
        return (reply.first?.arrayValue ?? []).compactMap { $0[1]?.arrayValue }
    }

    @Test func sendsThisDevicesLinkToTheReachablePhoneThroughKDEConnect() async throws {
        let devices = #"{"devices": [{"id": "a1b2c3", "name": "Pixel", "reachable": true}, {"id": "d4e5f6", "name": "Tablet", "reachable": false}]}"#
        try await withDevice([("kdeconnect.py", devices)]) { bus, env in
            let nothing = try engram(["handoff", "send"], env)
            #expect(nothing.status == 66 && nothing.stderr.contains("nothing to send"), "\(nothing.stderr)")

            #expect(try engram(["import", D.root + "/Samples/curricula/swift-concurrency.toml"], env).status == 0)
            #expect(try engram(["sync", "now"], env).status == 0)
            #expect(try engram(["session", "start", "--curriculum", "swift-concurrency"], env).status == 0)
            let sent = try engram(["handoff", "send"], env)
            #expect(sent.status == 0, "\(sent.stderr)")
            let url = try #require(sent.stdout.split(separator: " ").dropFirst().first.map(String.init))
            #expect(url.hasPrefix("engram://handoff/continue?device=") && url.count == "engram://handoff/continue?device=".count + 16)
            #expect(sent.stdout == "Sent \(url) to Pixel through KDE Connect.\n")
            let shared = try calls(bus, "org.kde.kdeconnect", "/modules/kdeconnect/devices/a1b2c3/share", "shareUrl")
            #expect(shared.count == 1 && shared.first?.first?.unwrapped.stringValue == url, "\(shared)")
            #expect(try calls(bus, "org.kde.kdeconnect", "/modules/kdeconnect/devices/d4e5f6/share", "shareUrl").isEmpty,
                    "the unreachable tablet is not sent anything")
        }
    }

    @Test func sendsALinkToANamedDeviceThroughGSConnect() async throws {
        let devices = #"{"devices": [{"id": "0f9e", "name": "Work Laptop", "connected": true}, {"id": "77aa", "name": "Phone", "connected": true}]}"#
        try await withDevice([("gsconnect.py", devices)]) { bus, env in
            let ambiguous = try engram(["handoff", "send", "--link", "engram://memory/m-1"], env)
            #expect(ambiguous.status != 0 && ambiguous.stderr.contains("choose one with --device"), "\(ambiguous.stderr)")
            let sent = try engram(["handoff", "send", "--device", "work laptop", "--link", "engram://memory/m-1"], env)
            #expect(sent.status == 0, "\(sent.stderr)")
            #expect(sent.stdout == "Sent engram://memory/m-1 to Work Laptop through GSConnect.\n")
            let activated = try calls(bus, "org.gnome.Shell.Extensions.GSConnect", "/org/gnome/Shell/Extensions/GSConnect/Device/0f9e", "Activate")
            #expect(activated.count == 1, "\(activated)")
            let args = try #require(activated.first)
            #expect(args.count == 3 && args[0].unwrapped.stringValue == "shareUri")
            #expect(args[1].arrayValue?.map { $0.unwrapped.stringValue } == ["engram://memory/m-1"])
            #expect(args[2].dictionaryEntries?.isEmpty == true)
            #expect(try calls(bus, "org.gnome.Shell.Extensions.GSConnect", "/org/gnome/Shell/Extensions/GSConnect/Device/77aa", "Activate").isEmpty)
        }
    }

    /// KDE Connect runs but its device list fails: that failure is what is said, not "no paired device".
    @Test func aFailingServiceIsReportedAsItself() async throws {
        try await withDevice([("kdeconnect.py", #"{"devices": [], "fail": "the daemon is shutting down"}"#)]) { _, env in
            let r = try engram(["handoff", "send", "--link", "engram://memory/m-1"], env)
            #expect(r.status != 0)
            #expect(r.stderr.contains("KDE Connect did not list its devices") && r.stderr.contains("the daemon is shutting down"),
                    "\(r.stderr)")
            #expect(!r.stderr.contains("no paired device"), "\(r.stderr)")
        }
    }

    @Test func withNeitherRunningItSaysWhatToInstall() async throws {
        try await withDevice([]) { _, env in
            let r = try engram(["handoff", "send", "--link", "engram://memory/m-1"], env)
            #expect(r.status == 66)
            #expect(r.stderr.contains("neither KDE Connect nor GSConnect runs on this session bus"), "\(r.stderr)")
        }
    }
}
