import ArgumentParser
import EngramCore
import Foundation

/// `engram sync add-device`: another machine's Syncthing, sharing the sync folder with it.
struct SyncAddDeviceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-device",
        abstract: "Share the sync folder with another machine, by the Syncthing id `engram sync setup` printed there.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The other machine's Syncthing device id.")
    var id: String

    @Option(help: "A name for the other machine.")
    var name: String?

    func validate() throws {
        let allowed = CharacterSet.uppercaseLetters.union(.decimalDigits).union(CharacterSet(charactersIn: "-"))
        guard id.count >= 52, id.unicodeScalars.allSatisfy({ allowed.contains($0) }) else {
            throw ValidationError("\(id) is not a Syncthing device id (like MFZWI3D-BONSGYC-…, as `engram sync setup` prints it)")
        }
    }

    func run() throws {
        try Terminal.reporting {
            let library = try global.library()
            let folder = try SyncCommand.folder(library)
            try SyncCommand.syncthing().addDevice(id, name: name, path: folder.root)
            print("Shared \(Terminal.safe(folder.root)) with \(id)\(name.map { " (\(Terminal.safe($0)))" } ?? "").")
            print("Run `engram sync setup` and `engram sync add-device` with this device's id on that machine too; `engram sync status` shows when it connects.")
        }
    }
}
