import ArgumentParser
import EngramCore
import Foundation
import EngramApp
import Indexer

/// `engram open`: follow an `engram://` link (the x-scheme-handler for engram).
struct OpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Follow an engram:// link.",
        discussion: """
            engram://memory/ID, engram://search?q=…, engram://curriculum/ID, engram://topic/ID,
            engram://remember?text=…&type=…&tag=…, engram://session/start?curriculum=ID&topic=ID,
            engram://session/pause|resume|stop[?id=…], engram://handoff/continue[?device=NAME|ID],
            engram://review, engram://stats, engram://context/NAME.
            A malformed or unknown link is refused and nothing happens.
            """)

    @OptionGroup var global: GlobalOptions

    @OptionGroup var pause: PauseOption

    @Argument(help: "The link (default: engram://stats, which the Engram launcher shows).")
    var url: String = "engram://stats"

    func run() throws {
        defer { pause.waitIfAsked() }
        try Terminal.reporting {
            let library = try global.library()
            let link = try DeepLink.parse(url)
            let outcome = try LinkHandler(library: library, source: "link").perform(link)
            switch (link, outcome.memory, outcome.search) {
            case (.memory, let m?, _):
                print(Terminal.safe(m.content))
                return
            case (.search(let query), _, let r?):
                // With no results, the printer's "No results for …" (and its "did you mean") is the one sentence.
                if !r.hits.isEmpty { print(Terminal.safe(outcome.sentence)) }
                SearchPrinter.print(r, query: Terminal.safe(query))
                return
            default:
                break
            }
            print(Terminal.safe(outcome.sentence))
            if let (c, topics) = outcome.curriculum {
                print(Terminal.styled(Terminal.safe(c.title), .bold))
                if !c.description.isEmpty { print(Terminal.safe(c.description)) }
                for t in topics {
                    print("\(t.done ? "✓" : "·") \(t.position). \(Terminal.safe(t.title))\(t.flagged ? " ⚑" : "")  " + Terminal.styled(t.id, .id))
                }
            }
        }
    }
}
