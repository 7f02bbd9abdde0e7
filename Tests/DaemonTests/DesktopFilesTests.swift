import EngramTestSupport
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// The files under Desktop/ are what each desktop reads, and they agree with each other and with the daemon.
@Suite struct DesktopFilesTests {
    static let desktop = DaemonFixture.root + "/Desktop"

    /// Key/value pairs of one group of a desktop-entry-style file.
    static func group(_ path: String, _ name: String) throws -> [String: String] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var current = ""
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") {
            if line.hasPrefix("[") { current = String(line.dropFirst().dropLast()); continue }
            guard current == name, !line.hasPrefix("#"), let eq = line.firstIndex(of: "=") else { continue }
            values[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        return values
    }

    /// Installs Desktop/ into a temporary DESTDIR with the real install script.
    static func install(prefix: String = "/usr/local") throws -> String {
        let destdir = NSTemporaryDirectory() + "engram-install-" + UUID().uuidString
        var env = ProcessInfo.processInfo.environment
        env["DESTDIR"] = destdir
        env.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
        let out = try Run.program(DaemonFixture.root + "/scripts/install.sh", [DaemonFixture.engramBinary, prefix], environment: env)
        guard out.status == 0 else { throw TestError("install.sh failed: \(out.stderr)") }
        return destdir
    }

    @Test func desktopFileValidateAcceptsEveryDesktopFile() throws {
        let destdir = try Self.install()
        defer { try? FileManager.default.removeItem(atPath: destdir) }
        let files = [destdir + "/usr/local/share/applications/org.engram.Engram.desktop",
                     destdir + "/usr/local/share/krunner/dbusplugins/org.engram.Engram.desktop"]
        for file in files {
            let out = try Run.program("/usr/bin/desktop-file-validate", [file], environment: ProcessInfo.processInfo.environment)
            #expect(out.status == 0, "\(file): \(out.stdout)\(out.stderr)")
            #expect(!out.stdout.contains("error"), "\(out.stdout)")
        }
    }

    @Test func installPutsEachFileWhereItsDesktopLooksWithBindirFilledIn() throws {
        let destdir = try Self.install()
        defer { try? FileManager.default.removeItem(atPath: destdir) }
        let root = destdir + "/usr/local"
        let expected = [
            "bin/engram", "share/applications/org.engram.Engram.desktop", "share/dbus-1/services/org.engram.Engram.service",
            "share/dbus-1/interfaces/org.gnome.Shell.SearchProvider2.xml", "share/dbus-1/interfaces/org.kde.krunner1.xml",
            "share/dbus-1/interfaces/org.engram.Engram1.xml",
            "share/gnome-shell/search-providers/org.engram.Engram.search-provider.ini",
            "share/krunner/dbusplugins/org.engram.Engram.desktop", "lib/systemd/user/engram.service",
        ]
        for file in expected {
            #expect(FileManager.default.fileExists(atPath: root + "/" + file), "missing \(file)")
            let text = (try? String(contentsOfFile: root + "/" + file, encoding: .utf8)) ?? ""
            #expect(!text.contains("@bindir@"), "\(file) still has @bindir@")
        }
        #expect(FileManager.default.isExecutableFile(atPath: root + "/bin/engram"))
        let service = try Self.group(root + "/share/dbus-1/services/org.engram.Engram.service", "D-BUS Service")
        #expect(service["Exec"] == "/usr/local/bin/engram daemon")
        let entry = try Self.group(root + "/share/applications/org.engram.Engram.desktop", "Desktop Entry")
        #expect(entry["Exec"] == "/usr/local/bin/engram open --pause %u")

        // A per-user install puts the unit where systemd --user reads it.
        let user = try Self.install(prefix: NSHomeDirectory() + "/.local")
        defer { try? FileManager.default.removeItem(atPath: user) }
        #expect(FileManager.default.fileExists(atPath: user + NSHomeDirectory() + "/.local/share/systemd/user/engram.service"))
    }

    @Test func theFilesAgreeWithEachOtherAndTheDaemon() throws {
        let service = try Self.group(Self.desktop + "/dbus-1/services/org.engram.Engram.service.in", "D-BUS Service")
        #expect(service["Name"] == DaemonFixture.busName)
        #expect(service["Exec"] == "@bindir@/engram daemon")
        let unitName = try #require(service["SystemdService"])
        let unit = try Self.group(Self.desktop + "/systemd/user/" + unitName + ".in", "Service")
        #expect(unit["Type"] == "dbus")
        #expect(unit["BusName"] == DaemonFixture.busName)
        #expect(unit["ExecStart"] == "@bindir@/engram daemon")

        let provider = try Self.group(Self.desktop + "/gnome-shell/search-providers/org.engram.Engram.search-provider.ini",
                                      "Shell Search Provider")
        #expect(provider["BusName"] == DaemonFixture.busName)
        #expect(provider["ObjectPath"] == DaemonFixture.providerPath)
        #expect(provider["Version"] == "2")
        let desktopID = try #require(provider["DesktopId"])
        let entry = try Self.group(Self.desktop + "/applications/" + desktopID + ".in", "Desktop Entry")
        #expect(entry["NoDisplay"] != "true", "GNOME Shell ignores providers whose desktop file is hidden")
        #expect(entry["MimeType"]?.split(separator: ";").contains("x-scheme-handler/engram") == true)
        #expect(entry["Exec"]?.hasSuffix(" %u") == true)

        let runner = try Self.group(Self.desktop + "/krunner/dbusplugins/org.engram.Engram.desktop", "Desktop Entry")
        #expect(runner["X-Plasma-API"] == "DBus2")
        #expect(runner["X-Plasma-DBusRunner-Service"] == DaemonFixture.busName)
        #expect(runner["X-Plasma-DBusRunner-Path"] == DaemonFixture.runnerPath)
    }
}
