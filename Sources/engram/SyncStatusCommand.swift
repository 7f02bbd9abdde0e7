import ArgumentParser
import EngramCore
import Foundation
import EngramApp
import Indexer

/// `engram sync status`: this device, its folder, the peers seen and what went wrong.
struct SyncStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Show this device, the peers seen and any problem.")

    @OptionGroup var global: GlobalOptions

    @Option(help: "Show at most this many messages.")
    var messages = 10

    @Flag(help: "Print only a hash of everything synced: two devices holding the same changes print the same.")
    var digest = false

    func run() throws {
        try Terminal.reporting {
            let library = try global.library()
            if digest {
                print(try library.store.syncDigest())
                return
            }
            let status = try library.store.syncStatus(messages: max(0, messages))
            print("Folder: " + (library.config.syncFolder.map(Terminal.safe) ?? "not set ([sync] folder in config.toml)"))
            guard let device = status.device else {
                print("Sync is off on this device; `engram sync now` turns it on once the folder is set.")
                return
            }
            print("This device: \(device)")
            print("Waiting to be written: \(Format.count(status.pending, "change"))")
            if status.parked > 0 {
                print("Kept for later: \(Format.count(status.parked, "change")) (from a newer Engram, or dated more than a day ahead of this device's clock and held until then)")
            }
            if status.peers.isEmpty {
                print("No other device seen yet.")
            } else {
                print("Other devices:")
                for p in status.peers {
                    print("  \(p.device)  \(Format.count(p.received, "change")) received, last \(Format.dateTime(p.lastSeen))")
                }
            }
            if !status.messages.isEmpty {
                print("Messages (newest first):")
                for m in status.messages { print("  \(Format.dateTime(m.at))  \(Terminal.safe(m.text))") }
            }
            if let root = library.config.syncFolder { Self.printSyncthing(path: root) }
        }
    }

    /// Syncthing's view of the folder, when this user runs Syncthing; one line saying why not otherwise.
    static func printSyncthing(path: String) {
        let view: Syncthing.View
        do {
            guard let config = try? SyncthingConfig.find() else { return }
            view = try Syncthing(transport: SyncthingREST(config: config)).view(path: path)
        } catch {
            print("Syncthing: \(Terminal.safe(String(describing: error)))")
            return
        }
        guard let folderID = view.folderID else {
            print("Syncthing (\(view.deviceID)) does not share this folder yet: run `engram sync setup`.")
            return
        }
        print("Syncthing: folder \"\(Terminal.safe(folderID))\" \(view.state.isEmpty ? "unknown" : Terminal.safe(view.state))"
              + (view.needItems > 0 ? ", \(Format.count(view.needItems, "file")) still to fetch" : ", up to date"))
        print("  This device's Syncthing id: \(view.deviceID)")
        if view.peers.isEmpty { print("  Shared with no other device yet: `engram sync add-device ID`.") }
        for p in view.peers {
            let name = p.name.isEmpty ? "" : " (\(Terminal.safe(p.name)))"
            let seen = p.connected ? "connected" : p.lastSeen.flatMap(Syncthing.date).map { "last seen \(Format.dateTime($0))" } ?? "never seen"
            let has = p.completion.map { String(format: ", has %.0f%%", $0) } ?? ""
            print("  \(p.deviceID)\(name): \(seen)\(has)")
        }
    }
}
