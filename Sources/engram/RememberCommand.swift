import ArgumentParser
import EngramClient
import EngramCore
import Foundation
import EngramApp
import Indexer

/// `engram remember`: capture a memory from arguments or standard input.
struct RememberCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remember",
        abstract: "Capture a memory.",
        discussion: "With no text, reads standard input: `pbpaste | engram remember --type quote`.")

    @OptionGroup var global: GlobalOptions

    @Option(help: "note, idea, task, quote or learning.")
    var type: MemoryType = .note

    @Option(name: [.customShort("t"), .long], help: "A tag (repeat for more).")
    var tag: [String] = []

    @Option(name: .shortAndLong, help: "The context it belongs to (work, personal, …); default: the active context, except sleep.")
    var context: String?

    @Flag(help: "Pin it: a pinned memory never fades from search.")
    var pin = false

    @Option(name: .customLong("request-id"), help: "An id that makes retries safe: the same id never stores twice.")
    var requestID: String?

    @Flag(help: "Replace invalid UTF-8 in standard input with � instead of refusing it.")
    var lossy = false

    @Flag(help: "Print the stored memory as JSON.")
    var json = false

    @Argument(help: "The text to remember.")
    var text: [String] = []

    func run() throws {
        try Terminal.reporting {
            let content = text.isEmpty || text == ["-"] ? try Terminal.readStdin(lossy: lossy) : text.joined(separator: " ")
            let library = try global.library()
            let draft = MemoryDraft(content: content.trimmingCharacters(in: .newlines), type: type, tags: tag,
                                    context: try context ?? library.store.captureContext(), source: "cli", pinned: pin)
            let result = try library.store.remember(draft, requestID: requestID)
            // Make it searchable now if no daemon holds the index; otherwise the daemon applies it.
            do { try IndexClient().makeSearchable(library) } catch { Terminal.warn("saved, but indexing is delayed: \(error)") }
            if json {
                try Terminal.printJSON(MemoryJSON(result.memory, decay: library.config.decay, now: library.store.clock()))
            } else {
                let m = result.memory
                let verb = result.created ? "Remembered" : "Already remembered"
                print("\(verb) \(Terminal.styled(m.id, .id)) (\(m.type.rawValue)): \(Terminal.safe(Format.truncate(m.title, 60)))")
            }
        }
    }
}

extension MemoryType: ExpressibleByArgument {}
