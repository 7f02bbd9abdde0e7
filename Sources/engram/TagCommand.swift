import ArgumentParser
import EngramClient
import EngramCore
import EngramApp
import Indexer

/// `engram tag`: add tags to a memory.
struct TagCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "tag", abstract: "Add tags to a memory.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The memory's id.")
    var id: String

    @Argument(help: "Tags to add.")
    var tags: [String]

    func run() throws {
        try Terminal.reporting {
            let library = try global.library()
            let m = try library.store.retag(id: id, add: tags)
            _ = try? IndexClient().makeSearchable(library)
            print("\(m.id): \(m.tags.isEmpty ? "no tags" : m.tags.joined(separator: ", "))")
        }
    }
}
