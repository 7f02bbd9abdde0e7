import ArgumentParser
import EngramClient
import EngramCore
import Foundation
import EngramApp
import Indexer

/// `engram forget`: remove a memory from the store, the index and its spelling data.
struct ForgetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget",
        abstract: "Forget a memory for good.",
        discussion: "Removes it from the store, the search index, its spelling data and the activity log.")

    @OptionGroup var global: GlobalOptions

    @Flag(name: .shortAndLong, help: "Do not ask for confirmation.")
    var yes = false

    @Argument(help: "The memory's id.")
    var id: String

    func run() throws {
        try Terminal.reporting {
            let library = try global.library()
            let m = try library.store.requireMemory(id: id)
            if !yes && isatty(0) == 1 {
                Terminal.write("Forget “\(Terminal.safe(Format.truncate(m.title, 60)))”? This cannot be undone. [y/N] ")
                guard let answer = readLine(), answer.lowercased().hasPrefix("y") else {
                    print("Kept \(m.id).")
                    return
                }
            }
            try library.store.forget(id: id)
            if try IndexClient().makeSearchable(library).isSearchable {
                print("Forgot \(m.id).")
            } else {
                print("Forgot \(m.id); it leaves the search index in a moment.")
            }
            if access(library.store.erasePendingPath, F_OK) == 0 {
                print("Another program is reading the store: its write-ahead log keeps an old copy until it lets go; the daemon (or the next forget) empties it then.")
            }
        }
    }
}
