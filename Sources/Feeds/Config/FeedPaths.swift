#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the store and config are, resolved from the environment exactly as `EngramPaths` does.
public struct FeedPaths: Sendable, Equatable {
    /// `$ENGRAM_DATA_DIR`, else `$XDG_DATA_HOME/engram`, else `~/.local/share/engram`.
    public var dataDirectory: String
    /// `$ENGRAM_CONFIG_DIR`, else `$XDG_CONFIG_HOME/engram`, else `~/.config/engram`.
    public var configDirectory: String

    /// The SQLite store.
    public var storePath: String { dataDirectory + "/engram.sqlite" }
    /// The config file.
    public var configPath: String { configDirectory + "/config.toml" }

    /// Creates paths from explicit folders.
    public init(dataDirectory: String, configDirectory: String) {
        self.dataDirectory = dataDirectory
        self.configDirectory = configDirectory
    }

    /// Resolves the folders from `env` (the process environment when nil).
    public static func resolve(_ env: [String: String]? = nil) -> FeedPaths {
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
        return FeedPaths(
            dataDirectory: nonEmpty("ENGRAM_DATA_DIR") ?? xdg("XDG_DATA_HOME", ".local/share") + "/engram",
            configDirectory: nonEmpty("ENGRAM_CONFIG_DIR") ?? xdg("XDG_CONFIG_HOME", ".config") + "/engram")
    }

    private static func homeFromPasswd() -> String {
        guard let pw = getpwuid(getuid()), let dir = pw.pointee.pw_dir else { return "/" }
        return String(cString: dir)
    }
}
