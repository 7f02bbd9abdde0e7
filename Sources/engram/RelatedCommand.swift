import ArgumentParser
import EngramCore
import Foundation
import EngramApp
import Indexer

/// `engram related`: memories linked to or like this one.
struct RelatedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "related", abstract: "List memories related to one.")

    @OptionGroup var global: GlobalOptions

    @Option(name: .shortAndLong, help: "At most this many.")
    var limit = 5

    @Flag(help: "Print as JSON.")
    var json = false

    @Argument(help: "The memory's id.")
    var id: String

    struct Row: Encodable { var id: String; var title: String; var type: String; var score: Double; var linked: Bool }

    func run() throws {
        try Terminal.reporting {
            let library = try global.library()
            let related = try library.related(to: id, limit: max(1, limit))
            if json {
                try Terminal.printJSON(related.map { Row(id: $0.memory.id, title: $0.memory.title, type: $0.memory.type.rawValue,
                                                         score: ($0.score * 1000).rounded() / 1000, linked: $0.linked) })
                return
            }
            if related.isEmpty { print("Nothing related to \(id) yet."); throw ExitCode(1) }
            for r in related {
                let how = r.linked ? "linked" : "\(Int((r.score * 100).rounded()))% alike"
                print(Terminal.styled(r.memory.id, .id) + "  " + Terminal.safe(Format.truncate(r.memory.title, 70)) + "  " + Terminal.styled(how, .dim))
            }
        }
    }
}
