import ArgumentParser
import EngramClient
import EngramCore
import Foundation
import EngramApp
import Indexer

/// `engram show`: open a memory (which strengthens it) and print it in full.
struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show a memory in full.",
        discussion: "Opening a memory strengthens it, bringing a faded one back into search. --peek does not.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Look without strengthening the memory.")
    var peek = false

    @Flag(help: "Print the memory as JSON.")
    var json = false

    @Flag(help: "Also list the values other edits replaced (kept once sync is on).")
    var history = false

    @OptionGroup var pause: PauseOption

    @Argument(help: "The memory's id.")
    var id: String

    func run() throws {
        defer { pause.waitIfAsked() }
        try Terminal.reporting {
            let library = try global.library()
            let store = library.store
            var memory = try store.requireMemory(id: id)
            if !peek {
                memory = try store.reinforce(id: id, action: .open, source: "cli")
                _ = try? IndexClient().makeSearchable(library)
                try? library.handoff?.publish(memory: memory)  // your other devices offer to continue it
            }
            let decay = library.config.decay
            let now = store.clock()
            if json {
                try Terminal.printJSON(MemoryJSON(memory, decay: decay, now: now))
                return
            }
            print(Terminal.safe(memory.content))
            print("")
            var rows: [(String, String)] = [
                ("id", memory.id), ("type", memory.type.rawValue),
                ("tags", memory.tags.isEmpty ? "—" : memory.tags.joined(separator: ", ")),
                ("context", memory.context ?? "—"),
                ("created", Format.dateTime(memory.created)),
                ("last used", Format.dateTime(memory.lastReinforced) + " (\(memory.useCount) use\(memory.useCount == 1 ? "" : "s"))"),
                ("strength", "\(Int((decay.score(of: memory, at: now) * 100).rounded()))%"),
            ]
            if memory.pinned {
                rows.append(("fades", "never (pinned)"))
            } else if let exp = decay.expiry(of: memory) {
                rows.append((exp <= now ? "faded" : "fades", Format.day(exp) + (exp <= now ? " — still here; not in search until used" : "")))
            }
            let links = try store.links(of: memory.id)
            for l in links.prefix(10) {
                let other = l.other(than: memory.id)
                let title = try store.memory(id: other)?.title ?? "?"
                rows.append(("linked", "\(other) \(Terminal.safe(Format.truncate(title, 50))) (\(l.origin.rawValue))"))
            }
            for (k, v) in rows {
                print(Terminal.styled(k.padding(toLength: 10, withPad: " ", startingAt: 0), .dim) + v)
            }
            if history {
                let revisions = try store.revisions(of: .memory, id: memory.id)
                print("")
                print(revisions.isEmpty ? "No earlier values." : "Earlier values, oldest first:")
                for r in revisions {
                    print(Terminal.styled(Format.dateTime(r.date), .dim) + "  \(r.field) on \(r.device): "
                          + Terminal.safe(Format.truncate(r.text.replacingOccurrences(of: "\n", with: " "), 200)))
                }
            }
        }
    }
}
