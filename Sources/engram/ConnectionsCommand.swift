import ArgumentParser
import EngramCore
import Foundation
import EngramApp
import Indexer
import Intents

/// `engram connections ID`: the link graph around a memory as text, JSON, DOT, SVG or PNG.
struct ConnectionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "connections", abstract: "Show the links around a memory (text, json, dot, svg, png).")

    @OptionGroup var global: GlobalOptions
    @Option(help: "How many links away to go.") var depth = 2
    @Option(help: "text, json, dot, svg or png (svg/png need Graphviz).") var format = "text"
    @Option(name: .shortAndLong, help: ArgumentHelp("Write the picture here (default: ID.svg / ID.png).", valueName: "file")) var output: String?
    @Argument(help: "The memory's id.") var id: String

    func run() throws {
        try Terminal.reporting {
            let library = try global.library()
            let g = try ConnectionGraph.build(store: library.store, center: id, depth: depth)
            switch format {
            case "text": Terminal.write(Terminal.safe(g.text()))
            case "json": try Terminal.printJSON(g)
            case "dot": Terminal.write(g.dot())
            case "svg", "png":
                let path = output ?? "\(id).\(format)"
                try GraphRenderer.render(g.dot(), format: format, to: path)
                print("Wrote \(path)")
            default: throw EngramError.invalidInput("--format takes text, json, dot, svg or png")
            }
        }
    }
}
