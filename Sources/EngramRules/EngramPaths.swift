#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where Engram keeps its data, config and runtime files, following the XDG base directories.
public struct EngramPaths: Sendable, Equatable {
    /// `$ENGRAM_DATA_DIR`, else `$XDG_DATA_HOME/engram`, else `~/.local/share/engram`: the store and the index.
    public var dataDirectory: String
    /// `$ENGRAM_CONFIG_DIR`, else `$XDG_CONFIG_HOME/engram`, else `~/.config/engram`: `config.toml`.
    public var configDirectory: String
    /// `$XDG_RUNTIME_DIR/engram`: caches and sockets that die with the session.
    public var runtimeDirectory: String

    /// The SQLite store.
    public var storePath: String { dataDirectory + "/engram.sqlite" }
    /// The Xapian index stub file; generations live beside it.
    public var indexPath: String { dataDirectory + "/index" }
    /// Private scratch space beside the store (temporary indexes); its contents never outlive the command using them.
    public var temporaryDirectory: String { dataDirectory + "/tmp" }
    /// The config file.
    public var configPath: String { configDirectory + "/config.toml" }

    /// Creates paths from explicit folders.
    public init(dataDirectory: String, configDirectory: String, runtimeDirectory: String) {
        self.dataDirectory = dataDirectory
        self.configDirectory = configDirectory
        self.runtimeDirectory = runtimeDirectory
    }

    /// Uses `folder` as the data folder, as every program's `--data-dir FOLDER` does: a relative folder is taken from
    /// the current directory.
    public mutating func useDataDirectory(_ folder: String) {
        guard !folder.hasPrefix("/") else { dataDirectory = folder; return }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        dataDirectory = (getcwd(&buffer, buffer.count).map { String(cString: $0) } ?? ".") + "/" + folder
    }

    /// The arguments `engram-app` and `engram-mcp` take as `engram` does, `--data-dir FOLDER` (or `--data-dir=FOLDER`)
    /// and `--version`, from `arguments` (the program's name first); the rest, in order, is the program's own. A
    /// `--data-dir` without its folder is an error in words.
    public static func parseProgramArguments(_ arguments: [String]) -> (paths: EngramPaths, version: Bool, rest: [String], error: String?) {
        var paths = EngramPaths.fromEnvironment()
        var version = false, rest: [String] = []
        var remaining = arguments.dropFirst()
        while let argument = remaining.popFirst() {
            if argument == "--data-dir" {
                guard let folder = remaining.popFirst(), !folder.isEmpty else { return (paths, version, rest, "--data-dir needs a folder") }
                paths.useDataDirectory(folder)
            } else if argument.hasPrefix("--data-dir=") {
                let folder = String(argument.dropFirst("--data-dir=".count))
                guard !folder.isEmpty else { return (paths, version, rest, "--data-dir needs a folder") }
                paths.useDataDirectory(folder)
            } else if argument == "--version" {
                version = true
            } else {
                rest.append(argument)
            }
        }
        return (paths, version, rest, nil)
    }

    /// `parseProgramArguments` of this process, as a program's start reads it: a problem is said on standard error
    /// (as "`program`: …") and ends the process with status 64; `--version` prints `version` and ends it.
    public static func programArguments(program: String, version: String) -> (paths: EngramPaths, rest: [String]) {
        let parsed = parseProgramArguments(CommandLine.arguments)
        if let error = parsed.error {
            let line = Array("\(program): \(error)\n".utf8)
            _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            exit(64)
        }
        if parsed.version {
            print(version)
            exit(0)
        }
        return (parsed.paths, parsed.rest)
    }

    /// Resolves the folders from `env`, or from the process environment when nil.
    ///
    /// Without `$XDG_RUNTIME_DIR` the runtime folder goes under `$TMPDIR` (else `/tmp`), named for the user.
    public static func fromEnvironment(_ env: [String: String]? = nil) -> EngramPaths {
        func get(_ key: String) -> String? {
            if let env { return env[key] }
            return getenv(key).map { String(cString: $0) }
        }
        func nonEmpty(_ key: String) -> String? { get(key).flatMap { $0.isEmpty ? nil : $0 } }
        let home = nonEmpty("HOME") ?? homeFromPasswd()
        func xdg(_ key: String, _ fallback: String) -> String {
            if let v = get(key), v.hasPrefix("/") { return v }
            return home + "/" + fallback
        }
        let runtimeBase = get("XDG_RUNTIME_DIR").flatMap { $0.hasPrefix("/") ? $0 : nil } ?? temporaryFolder() + "engram-\(getuid())"
        return EngramPaths(
            dataDirectory: nonEmpty("ENGRAM_DATA_DIR") ?? xdg("XDG_DATA_HOME", ".local/share") + "/engram",
            configDirectory: nonEmpty("ENGRAM_CONFIG_DIR") ?? xdg("XDG_CONFIG_HOME", ".config") + "/engram",
            runtimeDirectory: runtimeBase + "/engram")
    }

    /// The user's home folder: `$HOME`, else the password database's.
    public static func homeFolder() -> String {
        if let home = getenv("HOME").map({ String(cString: $0) }), !home.isEmpty { return home }
        return homeFromPasswd()
    }

    /// The user's home folder from the password database, for a process started without `$HOME`.
    private static func homeFromPasswd() -> String {
        guard let pw = getpwuid(getuid()), let dir = pw.pointee.pw_dir else { return "/" }
        return String(cString: dir)
    }

    /// The process's temporary folder with a trailing slash: `$TMPDIR`, else `/tmp/`.
    private static func temporaryFolder() -> String {
        guard let dir = getenv("TMPDIR").map({ String(cString: $0) }), !dir.isEmpty else { return "/tmp/" }
        return dir.hasSuffix("/") ? dir : dir + "/"
    }
}
