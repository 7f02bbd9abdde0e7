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

    /// After installing, the message names the KRunner restart this machine has: Plasma 6's kquitapp6, Plasma 5's
    /// kquitapp5, or both when it has neither.
    @Test func theInstallMessageNamesTheKRunnerRestartThisMachineHas() throws {
        let bin = NSTemporaryDirectory() + "engram-kquit-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: bin) }
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        func message(with tools: [String]) throws -> String {
            for t in ["kquitapp5", "kquitapp6"] { try? FileManager.default.removeItem(atPath: bin + "/" + t) }
            for t in tools {
                try writeScript("#!/bin/sh\nexit 0\n", to: bin + "/" + t)
            }
            var env = ProcessInfo.processInfo.environment
            env["DESTDIR"] = bin + "/dest"
            env["PATH"] = bin + ":/usr/bin:/bin"
            env.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
            let out = try Run.program(DaemonFixture.root + "/scripts/install.sh", [DaemonFixture.engramBinary, "/usr/local"], environment: env)
            guard out.status == 0 else { throw TestError("install.sh failed: \(out.stderr)") }
            return out.stdout.split(separator: "\n").last { $0.contains("KRunner after") }.map(String.init) ?? ""
        }
        #expect(try message(with: ["kquitapp6"]).hasSuffix("KRunner after: kquitapp6 krunner"))
        #expect(try message(with: ["kquitapp5"]).hasSuffix("KRunner after: kquitapp5 krunner"))
        #expect(try message(with: ["kquitapp5", "kquitapp6"]).hasSuffix("KRunner after: kquitapp6 krunner"))
        #expect(try message(with: []).contains("kquitapp6 krunner (Plasma 6) or kquitapp5 krunner (Plasma 5)"))
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
        #expect(entry["Exec"] == "/usr/local/bin/engram-app %u")
        #expect(entry["Terminal"] == "false", "a click opens Engram's window, not a terminal")
        #expect(FileManager.default.isExecutableFile(atPath: root + "/bin/engram-app"))

        // A per-user install puts the unit where systemd --user reads it.
        let user = try Self.install(prefix: NSHomeDirectory() + "/.local")
        defer { try? FileManager.default.removeItem(atPath: user) }
        #expect(FileManager.default.fileExists(atPath: user + NSHomeDirectory() + "/.local/share/systemd/user/engram.service"))
    }

    /// A browser hands an engram:// link to GIO (as `xdg-open` does on GNOME): after `install.sh` into a fresh prefix read as
    /// the user's data folder, GIO names our desktop entry as the handler, and opening a link runs the installed
    /// `engram-app` with it, with no terminal (here the installed app is swapped for a stand-in that records its argv;
    /// the window itself is driven by `make test-window`).
    @Test func afterInstallGIOOpensEngramLinksInTheWindow() async throws {
        try await withDaemon { d in
            let prefix = d.base + "/prefix"
            var env = ProcessInfo.processInfo.environment
            env.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
            let install = try Run.program(DaemonFixture.root + "/scripts/install.sh", [DaemonFixture.engramBinary, prefix], environment: env)
            #expect(install.status == 0, "\(install.stderr)")

            let app = prefix + "/bin/engram-app"
            try writeScript("#!/bin/sh\nprintf '%s\\n' \"$0\" \"$@\" > '\(d.base)/app-argv.tmp'\nmv '\(d.base)/app-argv.tmp' '\(d.base)/app-argv'\n", to: app)
            // A terminal that records it was asked for, to show none is.
            let terminal = d.base + "/terminal"
            try FileManager.default.createDirectory(atPath: terminal, withIntermediateDirectories: true)
            for name in ["xterm", "xdg-terminal-exec", "x-terminal-emulator"] {
                try writeScript("#!/bin/sh\ntouch '\(d.base)/terminal-used'\n", to: terminal + "/" + name)
            }
            let empty = d.base + "/empty"
            let gioEnv = ["HOME": d.base, "PATH": terminal + ":/usr/bin:/bin", "XDG_DATA_HOME": prefix + "/share", "XDG_DATA_DIRS": empty,
                          "XDG_CONFIG_HOME": d.base + "/xdg-config", "XDG_CONFIG_DIRS": empty,
                          "ENGRAM_DATA_DIR": d.dataDir, "ENGRAM_CONFIG_DIR": d.configDir]
            let mime = try Run.program("/usr/bin/gio", ["mime", "x-scheme-handler/engram"], environment: gioEnv)
            #expect(mime.status == 0, "\(mime.stderr)")
            #expect(mime.stdout.hasPrefix("Default application for") && mime.stdout.split(separator: "\n").first?.hasSuffix(": org.engram.Engram.desktop") == true,
                    "\(mime.stdout)")
            let query = try Run.program("/usr/bin/xdg-mime", ["query", "default", "x-scheme-handler/engram"], environment: gioEnv)
            #expect(query.text == "org.engram.Engram.desktop", "\(query.stdout)\(query.stderr)")

            let open = try Run.program("/usr/bin/gio", ["open", "engram://memory/s165"], environment: gioEnv)
            #expect(open.status == 0, "\(open.stderr)")
            #expect(await eventually(timeout: .seconds(30)) { FileManager.default.fileExists(atPath: d.base + "/app-argv") })
            let argv = (try? String(contentsOfFile: d.base + "/app-argv", encoding: .utf8)) ?? ""
            #expect(argv == [app, "engram://memory/s165"].map { $0 + "\n" }.joined())
            #expect(!FileManager.default.fileExists(atPath: d.base + "/terminal-used"), "no terminal is opened for a link")
        }
    }

    /// A KConfig string list: split on commas, `\,` and `\\` unescaped (KConfigGroup::readEntry for QStringList).
    static func kconfigList(_ value: String) -> [String] {
        var items: [String] = [], current = "", escaped = false
        for ch in value {
            if escaped { current.append(ch); escaped = false } else if ch == "\\" { escaped = true } else if ch == "," {
                items.append(current); current = ""
            } else { current.append(ch) }
        }
        if !current.isEmpty || !items.isEmpty { items.append(current) }
        return items
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
        // KRunner reads both lists as KConfig does in KF5 and KF6 (comma-separated, `\,` a comma inside an item): three
        // syntaxes, each with its own description.
        let syntaxes = Self.kconfigList(runner["X-Plasma-Runner-Syntaxes"] ?? "")
        let descriptions = Self.kconfigList(runner["X-Plasma-Runner-Syntax-Descriptions"] ?? "")
        #expect(syntaxes == [":q:", "tag:NAME :q:", "type:idea :q:"])
        #expect(descriptions.count == syntaxes.count, "\(descriptions)")
        #expect(descriptions.first == "Searches your memories, curricula and topics for what you type")  // KRunner shows it as written: no :q:
        #expect(runner["X-Plasma-API"] == "DBus2")
        #expect(runner["X-Plasma-DBusRunner-Service"] == DaemonFixture.busName)
        #expect(runner["X-Plasma-DBusRunner-Path"] == DaemonFixture.runnerPath)
    }
}
