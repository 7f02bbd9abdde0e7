import ArgumentParser
import EngramCore
import EngramClient
import Foundation
import EngramApp
import Indexer

/// `engram index`: look after the search index.
struct IndexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Rebuild, sweep or inspect the search index.",
        subcommands: [Rebuild.self, Expire.self, Status.self, Embed.self])

    /// `engram index rebuild`.
    struct Rebuild: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rebuild", abstract: "Build a fresh index from the store and swap it in.")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            try Terminal.reporting {
                let library = try global.library()
                let start = Date()
                let (items, _) = try IndexClient().rebuild(library, progress: Terminal.progress("Indexing")) { holder in
                    Terminal.warn("\(holder) holds the index; asking it to rebuild…")
                }
                print("Rebuilt the index: \(items) items in \(String(format: "%.1f", Date().timeIntervalSince(start))) s.")
            }
        }
    }

    /// `engram index expire`.
    struct Expire: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "expire", abstract: "Remove faded memories from the index now (they stay in the store).")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            try Terminal.reporting {
                let library = try global.library()
                guard let n = try library.sweepExpired() else {
                    let holder = IndexHolder(of: library)
                    guard holder.isDaemon else {
                        Terminal.warn("\(holder.capitalized) holds the index, so nothing was swept; try again when it is done.")
                        throw ExitCode(75)
                    }
                    print("\(holder.capitalized) holds the index; it sweeps faded memories on its own.")
                    return
                }
                print("Swept \(Format.count(n, "faded item")) from the index.")
            }
        }
    }

    /// `engram index embed`.
    struct Embed: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "embed",
            abstract: "Compute the meaning-search vectors that are missing now, with progress (the daemon does it in the background).")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            try Terminal.reporting {
                let library = try global.library()
                if case .failure(let why) = library.meaningModel {
                    Terminal.warn("meaning search is off: \(why.reason)")
                    throw ExitCode(78)
                }
                if case .busy = try library.applyPending() {
                    Terminal.warn("\(IndexHolder(of: library)) holds the index; it embeds new items itself. Embedding what is waiting here too.")
                }
                let start = Date()
                let report = try library.embedPending(progress: Terminal.progress("Embedding"))
                print("Embedded \(Format.count(report?.embedded ?? 0, "item")) in \(String(format: "%.1f", Date().timeIntervalSince(start))) s" +
                      ((report?.deleted ?? 0) > 0 ? "; removed \(report?.deleted ?? 0) vectors of items gone." : "."))
            }
        }
    }

    /// `engram index status`.
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "Show the index's size and whether it is up to date.")
        @OptionGroup var global: GlobalOptions
        @Flag(help: "Print as JSON.") var json = false

        func run() throws {
            try Terminal.reporting {
                let library = try global.library()
                let s = try library.status()
                if json { try Terminal.printJSON(s); return }
                guard s.exists else {
                    print("No index yet (\(Format.count(s.pending, "change")) waiting). `engram index rebuild` builds it.")
                    return
                }
                print("Index: \(s.path)")
                print("Items: \(s.documents) (\([Format.count(s.memories, "memory", "memories"), Format.count(s.curricula, "curriculum", "curricula"), Format.count(s.topics, "topic")].joined(separator: ", ")))")
                var outside: [String] = []
                if s.swept > 0 { outside.append("\(s.swept) faded and swept from it (`engram search --all` finds them)") }
                if s.unindexed > 0 { outside.append("\(s.unindexed) waiting to be indexed") }
                print("Store: \(Format.count(s.storeMemories, "memory", "memories"))" + (outside.isEmpty ? ", all in the index" : "; not in the index: " + outside.joined(separator: ", ")))
                print("Applied through change #\(s.lastAppliedSeq); \(s.pending == 0 ? "up to date" : "\(Format.count(s.pending, "change")) waiting")")
                if let m = s.meaning {
                    if m.on {
                        print("Meaning: on (\(m.model ?? "?")); \(Format.count(m.embedded, "item")) embedded" +
                              (m.waiting > 0 ? ", \(m.waiting) waiting (the daemon embeds them, or `engram index embed`)" : ", up to date"))
                    } else {
                        print("Meaning: off, \(m.reason ?? "for no known reason"); search finds by words only")
                    }
                }
            }
        }
    }
}
