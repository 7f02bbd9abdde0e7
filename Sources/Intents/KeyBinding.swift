import EngramCore
import Foundation

/// A desktop keybinding that runs `engram shortcut run NAME` (or push-to-talk, `engram listen`), for sway, i3, GNOME
/// or KDE Plasma.
public struct KeyBinding: Sendable {
    /// The desktops Engram writes bindings for.
    public enum Desktop: String, Sendable, CaseIterable { case sway, i3, gnome, kde }

    public var shortcut: Shortcut
    public var desktop: Desktop
    /// The `engram` executable to run.
    public var executable: String
    /// What it runs, after the executable: `shortcut run NAME`, or `listen`.
    public var arguments: [String]

    /// Creates a binding.
    public init(shortcut: Shortcut, desktop: Desktop, executable: String) {
        self.shortcut = shortcut
        self.desktop = desktop
        self.executable = executable
        arguments = ["shortcut", "run", shortcut.name]
    }

    /// Push-to-talk: `engram listen` on `key` (default Super+Shift+L); the first press listens, the second stops.
    public static func pushToTalk(desktop: Desktop, executable: String, key: String?) -> KeyBinding {
        var b = KeyBinding(shortcut: Shortcut(name: "Push to talk", steps: [], key: key ?? "Super+Shift+L"), desktop: desktop, executable: executable)
        b.arguments = ["listen"]
        return b
    }

    /// The chord, defaulting to Super+Shift+ the first letter of the name.
    public var chord: String {
        shortcut.key ?? "Super+Shift+\(shortcut.name.first(where: \.isLetter).map { String($0).uppercased() } ?? "E")"
    }

    /// A file-name-safe form of the name.
    public var slug: String { shortcut.name.lowercased().split { !$0.isLetter && !$0.isNumber }.joined(separator: "-") }

    /// `name` single-quoted for a shell-like config line.
    static func quoted(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    var command: String {
        ([Self.quoted(executable)] + arguments.map { a in a.allSatisfy { $0.isLetter || $0.isNumber || "-_".contains($0) } ? a : Self.quoted(a) })
            .joined(separator: " ")
    }

    /// What to add to the desktop's configuration, as text.
    public func snippet() -> String {
        switch desktop {
        case .sway, .i3:
            let keys = chord.split(separator: "+").map { k -> String in
                switch k.lowercased() { case "super", "mod4", "meta", "win": "Mod4"; case "alt", "mod1": "Mod1"; case "ctrl", "control": "Control"; case "shift": "Shift"; default: String(k).lowercased() }
            }.joined(separator: "+")
            return "# Engram shortcut “\(shortcut.name)”\nbindsym \(keys) exec \(command)\n"
        case .gnome:
            let path = "/org/gnome/settings-daemon/plugins/media-keys/custom-keybindings/engram-\(slug)/"
            let schema = "org.gnome.settings-daemon.plugins.media-keys.custom-keybinding:\(path)"
            return """
                # Add \(path) to org.gnome.settings-daemon.plugins.media-keys custom-keybindings, then:
                gsettings set \(schema) name \(Self.quoted("Engram: " + shortcut.name))
                gsettings set \(schema) command \(Self.quoted(command))
                gsettings set \(schema) binding \(Self.quoted(gnomeChord))

                """
        case .kde:
            return """
                # ~/.local/share/applications/engram-\(slug).desktop
                \(kdeDesktopFile)
                # ~/.config/kglobalshortcutsrc
                [engram-\(slug).desktop]
                _launch=\(chord.replacingOccurrences(of: "Super", with: "Meta")),none,Engram: \(shortcut.name)

                """
        }
    }

    var gnomeChord: String {
        chord.split(separator: "+").map { k -> String in
            switch k.lowercased() { case "super", "meta", "win": "<Super>"; case "alt": "<Alt>"; case "ctrl", "control": "<Control>"; case "shift": "<Shift>"; default: String(k).lowercased() }
        }.joined()
    }

    var kdeDesktopFile: String {
        """
        [Desktop Entry]
        Type=Application
        Name=Engram: \(shortcut.name)
        Exec=\(([executable] + arguments).map { $0.contains(" ") ? "\"\($0.replacingOccurrences(of: "\"", with: ""))\"" : $0 }.joined(separator: " "))
        NoDisplay=true
        X-KDE-GlobalAccel-CommandShortcut=true

        """
    }

    /// Writes the binding where the desktop reads it; returns what was done, one line each.
    public func install(home: String) throws -> [String] {
        func write(_ path: String, _ text: String) throws {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else { throw EngramError.io("cannot write \(path)") }
        }
        switch desktop {
        case .sway, .i3:
            let dir = desktop == .sway ? "\(home)/.config/sway/config.d" : "\(home)/.config/i3/config.d"
            let file = "\(dir)/engram-\(slug).conf"
            try write(file, snippet())
            return ["wrote \(file)", "make sure your \(desktop.rawValue) config has: include \(dir)/*  — then reload \(desktop.rawValue)"]
        case .kde:
            let file = "\(home)/.local/share/applications/engram-\(slug).desktop"
            try write(file, kdeDesktopFile)
            var done = ["wrote \(file)"]
            if let kw = Spawner.find("kwriteconfig5") {
                let r = try Executables.run(kw, ["--file", "kglobalshortcutsrc", "--group", "engram-\(slug).desktop", "--key", "_launch",
                                                 "\(chord.replacingOccurrences(of: "Super", with: "Meta")),none,Engram: \(shortcut.name)"])
                done.append(r.status == 0 ? "set the shortcut in kglobalshortcutsrc (log out and in, or restart kglobalaccel)" : "kwriteconfig5 failed: \(r.stderr)")
            } else {
                done.append("kwriteconfig5 is not installed; add the kglobalshortcutsrc lines from `engram shortcut bind` by hand")
            }
            return done
        case .gnome:
            guard let gs = Spawner.find("gsettings") else { throw EngramError.notFound("gsettings is not installed") }
            let path = "/org/gnome/settings-daemon/plugins/media-keys/custom-keybindings/engram-\(slug)/"
            let listKey = ("org.gnome.settings-daemon.plugins.media-keys", "custom-keybindings")
            let current = try Executables.run(gs, ["get", listKey.0, listKey.1])
            guard current.status == 0 else { throw EngramError.io("gsettings cannot read custom keybindings: \(current.stderr)") }
            var paths = current.stdout.components(separatedBy: "'").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
            if !paths.contains(path) { paths.append(path) }
            let list = "[" + paths.map { "'\($0)'" }.joined(separator: ", ") + "]"
            let schema = "org.gnome.settings-daemon.plugins.media-keys.custom-keybinding:\(path)"
            for args in [["set", listKey.0, listKey.1, list], ["set", schema, "name", "Engram: \(shortcut.name)"],
                         ["set", schema, "command", command], ["set", schema, "binding", gnomeChord]] {
                let r = try Executables.run(gs, args)
                guard r.status == 0 else { throw EngramError.io("gsettings \(args.joined(separator: " ")) failed: \(r.stderr)") }
            }
            return ["bound \(gnomeChord) to “\(shortcut.name)” in GNOME"]
        }
    }
}
