import ArgumentParser
import EngramCore
import Foundation

/// `engram sync setup`: the sync folder as a folder of the user's running Syncthing.
struct SyncSetupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup",
        abstract: "Share the sync folder through your running Syncthing and print this device's id.",
        discussion: """
            Creates (or updates) a send-receive folder in Syncthing at the `[sync]` folder of config.toml, with \
            maxConflicts set, through Syncthing's REST API on loopback (the API key comes from Syncthing's \
            config.xml). Then run `engram sync add-device ID` with the id another machine printed.
            """)

    @OptionGroup var global: GlobalOptions

    func run() throws {
        try Terminal.reporting {
            let library = try global.library()
            let folder = try SyncCommand.folder(library)
            try EngramPaths.ensurePrivateDirectory(folder.root)
            try folder.enable()
            let setup = try SyncCommand.syncthing().setUp(path: folder.root)
            print((setup.created ? "Syncthing now shares " : "Syncthing's folder \"\(setup.folderID)\" is set up at ") + Terminal.safe(folder.root)
                  + " (send and receive, up to \(Syncthing.maxConflicts) conflict copies).")
            if !setup.versioning.isEmpty {
                print("Warning: the folder keeps old versions (\(Terminal.safe(setup.versioning)) versioning): Syncthing's .stversions "
                      + "keeps text you later forget. Turn versioning off for this folder in Syncthing (Edit Folder → File Versioning).")
            }
            if !setup.ignores.isEmpty {
                print("Note: the folder ignores \(setup.ignores.map(Terminal.safe).joined(separator: ", ")); Engram needs every file under devices/.")
            }
            print("This device's Syncthing id: \(setup.deviceID)")
            print("On your other machine, run: engram sync add-device \(setup.deviceID)")
        }
    }
}
