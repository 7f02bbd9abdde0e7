import Foundation

/// Where Engram keeps its data, config and runtime files, following the XDG base directories.
public struct EngramPaths: Sendable, Equatable {
    /// `$XDG_DATA_HOME/engram` (or `$ENGRAM_DATA_DIR`): the store and the index.
    public var dataDirectory: String
    /// `$XDG_CONFIG_HOME/engram`: `config.toml`.
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

    /// Resolves the folders from the environment (`ENGRAM_DATA_DIR` overrides the data folder).
    public static func fromEnvironment(_ env: [String: String] = ProcessInfo.processInfo.environment) -> EngramPaths {
        let home = env["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        func xdg(_ key: String, _ fallback: String) -> String {
            if let v = env[key], v.hasPrefix("/") { return v }
            return home + "/" + fallback
        }
        let data = env["ENGRAM_DATA_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? xdg("XDG_DATA_HOME", ".local/share") + "/engram"
        let config = env["ENGRAM_CONFIG_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? xdg("XDG_CONFIG_HOME", ".config") + "/engram"
        let runtimeBase = env["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSTemporaryDirectory() + "engram-\(getuid())"
        return EngramPaths(dataDirectory: data, configDirectory: config, runtimeDirectory: runtimeBase + "/engram")
    }

    /// Creates `path` (and parents) as a private folder (0700), tightening it if it exists.
    public static func ensurePrivateDirectory(_ path: String) throws {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        if fm.fileExists(atPath: path, isDirectory: &isDir) {
            guard isDir.boolValue else { throw EngramError.io("\(path) exists and is not a folder") }
        } else {
            do {
                try fm.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw EngramError.io("cannot create \(path): \(error.localizedDescription)")
            }
        }
        if chmod(path, 0o700) != 0 && errno != EPERM && errno != EROFS {
            throw EngramError.io("cannot make \(path) private: \(String(cString: strerror(errno)))")
        }
    }

    /// Makes every regular file directly inside `path` private (0600).
    public static func tightenFiles(in path: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
        for name in names {
            var st = stat()
            let full = path + "/" + name
            if lstat(full, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, (st.st_mode & 0o077) != 0 {
                _ = chmod(full, 0o600)
            }
        }
    }
}
