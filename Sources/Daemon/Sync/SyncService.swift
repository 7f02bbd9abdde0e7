import Dispatch
import EngramCore
import Foundation
import Glibc
import EngramApp
import Indexer
import Logging
import ServiceLifecycle

/// Keeps this device in step with the sync folder while the daemon runs: when a peer's log grows (inotify on
/// `devices/` and each device's folder, and a check every `interval` as a fallback) or this device has changes
/// waiting (looked at after every commit or store change the daemon hears of), it runs what `engram sync now`
/// runs, then has the keeper index what arrived and posts `.storeChanged` (the glance, search and feeds refresh).
/// It does nothing until sync is on (`engram sync now` or `setup` once).
struct SyncService: Service {
    /// The collection synced; its `[sync] folder` is the folder watched (the daemon runs this service only when set).
    let library: Library
    /// Indexes what arrived.
    let keeper: IndexKeeper
    /// Where `.storeChanged` is posted after peers' changes are applied.
    let events: LibraryEvents
    /// How often the folder is checked without an inotify event.
    let interval: Duration
    /// The daemon's journal.
    let log: Logger
    private let queue = DispatchQueue(label: "org.engram.daemon.sync", qos: .utility)

    /// The sync folder.
    private var root: String { library.config.syncFolder ?? "" }

    func run() async throws {
        let wakes = FolderWakes(queue: queue, interval: interval, check: (), buffering: .bufferingNewest(1))
        // This device's own changes go out as soon as they are stored, not at the next check.
        let changes = events.subscribe(to: [.committed, .storeChanged])
        wakes.feed { for await _ in changes { wakes.yield(()) } }
        let runner = Task {
            var seen: [String: [Int64]] = [:]
            wakes.yield(())
            for await _ in wakes.stream {
                let before = seen
                seen = await withCheckedContinuation { done in
                    queue.async { done.resume(returning: self.pass(before, wakes.watch)) }
                }
            }
        }
        try? await gracefulShutdown()
        wakes.finish()
        await runner.value
        wakes.cancelWatch()
    }

    /// One check: syncs when the folder's files differ from `seen` or changes wait; returns what the next check
    /// compares with.
    private func pass(_ seen: [String: [Int64]], _ watch: FolderWatch?) -> [String: [Int64]] {
        let devices = root + "/devices"
        watch?.add(devices)
        let now = DeviceFolders.files(devices, watch: watch, logsOnly: true)
        var me = ""
        do {
            guard let device = try library.store.syncDevice() else { return now }
            me = device + "/"
            let status = try library.store.syncStatus(messages: 0)
            // Kept lines (held until a peer's clock comes round, or from a newer Engram) are retried at each check,
            // even when nothing else changed.
            guard now != seen || status.pending > 0 || status.parked > 0 else { return seen }
            var folder = SyncFolder(store: library.store, root: root)
            folder.crashPoint = Library.crashHook
            let (exported, report) = try folder.syncNow()
            if report.applied > 0 {
                keeper.requestApply()
                events.post(.storeChanged)
            }
            if exported > 0 || report.applied > 0 {
                log.info("synced", metadata: ["written": "\(exported)", "applied": "\(report.applied)", "peers": "\(report.peers.count)"])
            }
        } catch {
            log.warning("sync with the folder failed; trying again", metadata: ["folder": "\(root)", "error": "\(error)"])
            return seen  // the files still differ from what was last synced: the next check tries again
        }
        // This device's files as its export left them, the peers' as they were before the pass read them: a peer's
        // log that grew while the pass ran (after its import read it) looks changed next time and is read then.
        let after = DeviceFolders.files(devices, watch: watch, logsOnly: true)
        return after.filter { $0.key.hasPrefix(me) }.merging(now.filter { !$0.key.hasPrefix(me) }) { own, _ in own }
    }
}
