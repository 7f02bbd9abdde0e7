import ArgumentParser
import EngramCore
import Foundation
import EngramApp
import Indexer

/// `engram sync`: this device's changes to the sync folder and the other devices' changes from it.
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Share memories and learning with your other devices through a synced folder.",
        discussion: """
            Set the folder in config.toml (`[sync]` `folder = "~/Sync/engram"`) on every device and let a file \
            sync such as Syncthing keep it the same everywhere: `engram sync setup` makes it a folder of your \
            running Syncthing and `engram sync add-device ID` shares it with another machine. Each device writes \
            only its own log there (devices/<device-id>/); the store, the index and the vectors stay in the data \
            folder. While the daemon runs it syncs by itself within seconds; `engram sync now` does it at once.
            """,
        subcommands: [SyncNowCommand.self, SyncStatusCommand.self, SyncSetupCommand.self, SyncAddDeviceCommand.self],
        defaultSubcommand: SyncStatusCommand.self)

    /// The sync folder of `library`, or an error that says how to set one.
    static func folder(_ library: Library) throws -> SyncFolder {
        guard let root = library.config.syncFolder else {
            throw EngramError.config("sync is off: set the folder in \(library.paths.configDirectory)/config.toml, e.g.\n[sync]\nfolder = \"~/Sync/engram\"")
        }
        return SyncFolder(store: library.store, root: root)
    }

    /// The user's running Syncthing, found through its config.xml.
    static func syncthing() throws -> Syncthing {
        Syncthing(transport: SyncthingREST(config: try SyncthingConfig.find()))
    }
}
