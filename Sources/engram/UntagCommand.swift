import ArgumentParser
import EngramClient
import EngramCore
import EngramApp
import Indexer

/// `engram untag`: remove tags from a memory.
struct UntagCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "untag", abstract: "Remove tags from a memory.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The memory's id.")
    var id: String

    @Argument(help: "Tags to remove.")
    var tags: [String]

    func run() throws {
        try Terminal.reporting {
            let library = try global.library()
            let m = try library.store.retag(id: id, remove: tags)
            _ = try? IndexClient().makeSearchable(library)
            print("\(m.id): \(m.tags.isEmpty ? "no tags" : m.tags.joined(separator: ", "))")
        }
    }
}
