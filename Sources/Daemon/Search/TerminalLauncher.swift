import EngramCore
import Foundation
import Logging

/// Opens Engram's own commands in the user's terminal, always as an argv: nothing from a search or a
/// stored memory is ever read by a shell.
///
/// The terminal comes from `[desktop] terminal` in config, else `$TERMINAL`, else `xdg-terminal-exec` (the
/// freedesktop default-terminal launcher), else the desktop's own (Ptyxis, Console or GNOME Terminal on GNOME,
/// Konsole on KDE, …), else Debian's `x-terminal-emulator`, else a common one.
/// Under systemd the terminal is started in its own scope, so stopping the daemon leaves it open.
struct TerminalLauncher: Sendable {
    /// What to show.
    enum Command: Sendable, Equatable {
        /// `engram show --peek ID`: the memory was already strengthened by the daemon.
        case show(memoryID: String)
        /// `engram open URL`: a curriculum or topic.
        case open(url: String)
        /// `engram search -- TERMS…`.
        case search(terms: [String])
    }

    /// The terminal argv prefix, or nil when none was configured or found.
    let terminal: [String]?
    /// The `engram` executable to run in it.
    let engram: String
    /// The data folder, passed explicitly so the terminal shows the daemon's collection.
    let dataDirectory: String
    /// Whether to start the terminal through `systemd-run --user --scope`.
    let useSystemdScope: Bool
    let log: Logger

    /// The full argv for a command: terminal, then engram with `--pause` so the window stays until Enter.
    func argv(for command: Command) -> [String]? {
        guard let terminal else { return nil }
        let data = ["--data-dir", dataDirectory]
        let engramArgv: [String] = switch command {
        case .show(let id): [engram, "show"] + data + ["--peek", "--pause", "--", id]
        case .open(let url): [engram, "open"] + data + ["--pause", "--", url]
        case .search(let terms): [engram, "search"] + data + ["--pause", "--"] + terms
        }
        let scope = useSystemdScope ? ["systemd-run", "--user", "--scope", "--quiet", "--collect", "--"] : []
        return scope + terminal + engramArgv
    }

    /// Starts the command in a terminal without waiting for it; false (and a log line) if it could not start.
    ///
    /// `timestamp` is the X server time of the click or key press that asked for it (GNOME Shell passes it), handed
    /// on as `DESKTOP_STARTUP_ID=…_TIME<timestamp>` so the window may take focus; 0 when unknown.
    @discardableResult
    func launch(_ command: Command, timestamp: UInt32 = 0, activationToken: String? = nil) -> Bool {
        guard let argv = argv(for: command) else {
            log.warning("no terminal found to show the result; set [desktop] terminal in config.toml")
            return false
        }
        guard let executable = Self.resolve(argv[0]) else {
            log.warning("the terminal program was not found", metadata: ["program": "\(argv[0])"])
            return false
        }
        let log = self.log
        let name = argv[0]
        do {
            let startupID = StartupEnvironment.startupID(program: terminal?.first ?? name, timestamp: timestamp)
            let environment = StartupEnvironment.environment(ProcessInfo.processInfo.environment, activationToken: activationToken,
                                                              startupID: startupID)
            try Spawner.start(executable, Array(argv.dropFirst()), environment: environment) { exit in
                if exit.code != 0 {
                    log.warning("the terminal exited with an error", metadata: ["program": "\(name)", "status": "\(exit.code)"])
                }
            }
            log.info("opened a terminal", metadata: ["program": "\(name)"])
            return true
        } catch {
            log.warning("could not start the terminal", metadata: ["program": "\(name)", "error": "\(error)"])
            return false
        }
    }

    /// The terminal to use: configured, `$TERMINAL`, the desktop's own, or a common one, whichever exists first.
    static func detect(configured: [String]?, environment: [String: String],
                       exists: (String) -> Bool = { resolve($0) != nil }) -> [String]? {
        if let configured { return configured }
        if let t = environment["TERMINAL"], !t.isEmpty, exists(t) { return [t, "-e"] }
        // The freedesktop default-terminal launcher knows the person's choice: it takes the command as its arguments.
        if exists("xdg-terminal-exec") { return ["xdg-terminal-exec"] }
        let desktops = (environment["XDG_CURRENT_DESKTOP"] ?? "").lowercased().split(separator: ":").map(String.init)
        var candidates: [[String]] = []
        // GNOME's terminals: Ptyxis (Fedora's and GNOME 47's default, with no x-terminal-emulator), Console, and
        // GNOME Terminal; each takes the command after `--`, as separate arguments.
        if desktops.contains("gnome") { candidates += [["ptyxis", "--"], ["kgx", "--"], ["gnome-terminal", "--"]] }
        if desktops.contains("kde") { candidates += [["konsole", "-e"]] }
        if desktops.contains("xfce") { candidates += [["xfce4-terminal", "-x"]] }
        candidates += [["x-terminal-emulator", "-e"], ["ptyxis", "--"], ["gnome-terminal", "--"], ["konsole", "-e"], ["xfce4-terminal", "-x"],
                       ["foot"], ["alacritty", "-e"], ["kitty"], ["xterm", "-e"]]
        return candidates.first { exists($0[0]) }
    }

    /// The absolute path of a program, looked up in `$PATH` (and /usr/bin, /usr/local/bin) when it has no slash.
    static func resolve(_ program: String) -> String? {
        Spawner.find(program, path: (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/local/bin:/usr/bin:/bin")
    }
}
