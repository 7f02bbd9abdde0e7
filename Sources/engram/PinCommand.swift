import ArgumentParser
import EngramClient
import EngramCore
import EngramApp
import Indexer

/// `engram pin`: keep a memory in search for good (or let it fade again with --off).
struct PinCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "pin", abstract: "Pin a memory so it never fades from search.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Unpin: let it fade again.")
    var off = false

    @Argument(help: "The memory's id.")
    var id: String

    func run() throws {
        try Terminal.reporting {
            let library = try global.library()
            let m = try library.store.setPinned(id: id, !off)
            _ = try? IndexClient().makeSearchable(library)
            print(off ? "Unpinned \(m.id); it fades again with disuse." : "Pinned \(m.id); it stays in search.")
        }
    }
}
