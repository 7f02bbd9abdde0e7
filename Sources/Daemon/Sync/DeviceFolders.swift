import EngramCore
import Foundation

/// The sync folder's `devices/<id>/` folders as the sync and handoff services both look at them.
enum DeviceFolders {
    /// Each file under `devices/<id>/` with its size and change time (a grown log differs); watches each folder.
    /// With `logsOnly`, only the operation logs: a handoff's `activity.json` or Syncthing's temporary files changing
    /// is no reason for a sync pass.
    static func files(_ devices: String, watch: FolderWatch?, logsOnly: Bool = false) -> [String: [Int64]] {
        var out: [String: [Int64]] = [:]
        let fm = FileManager.default
        for device in (try? fm.contentsOfDirectory(atPath: devices)) ?? [] {
            let dir = devices + "/" + device
            watch?.add(dir)
            for name in (try? fm.contentsOfDirectory(atPath: dir)) ?? [] where !logsOnly || SyncFolder.isLog(name) {
                let print = FolderWatch.fingerprint(dir + "/" + name)
                guard print != [0, 0, 0, 0] else { continue }
                out[device + "/" + name] = print
            }
        }
        return out
    }
}
