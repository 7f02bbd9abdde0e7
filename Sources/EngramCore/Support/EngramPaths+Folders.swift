import Foundation

/// The folder chores on the shared `EngramRules.EngramPaths`, which need Foundation's `FileManager`.
extension EngramPaths {
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
