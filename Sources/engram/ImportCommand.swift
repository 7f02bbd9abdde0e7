import ArgumentParser
import EngramCore
import Foundation
import EngramClient
import EngramApp
import Indexer

/// `engram import`: bring in JSON Lines, a Markdown vault or a curriculum file.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import memories, a folder of Markdown notes, or a curriculum.",
        discussion: """
            A folder is read as a vault of Markdown notes with YAML front matter (tags, type, created, context); \
            a .md file is one such note. \
            A .jsonl file (or - for standard input) is Engram's export format. A .toml or .yaml file is a curriculum \
            with its topics. Re-importing updates what was imported before instead of duplicating it.
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(name: .customLong("skip-invalid"), help: "Import the valid lines and notes, listing the ones left out.")
    var skipInvalid = false

    @Argument(help: "Files or folders to import.")
    var sources: [String]

    func run() throws {
        try Terminal.reporting {
            let library = try global.library()
            let transfer = Transfer(store: library.store)
            var total = ImportSummary()
            for source in sources {
                let summary: ImportSummary
                var isDir: ObjCBool = false
                let exists = source == "-" || FileManager.default.fileExists(atPath: source, isDirectory: &isDir)
                guard exists else { throw EngramError.notFound("\(source): no such file or folder") }
                let ext = (source as NSString).pathExtension.lowercased()
                if isDir.boolValue {
                    summary = try VaultImporter(store: library.store).importFolder(source, skipInvalid: skipInvalid, progress: Terminal.progress("Reading"))
                } else if ["md", "markdown"].contains(ext) {
                    summary = try VaultImporter(store: library.store).importFile(source, progress: Terminal.progress("Reading"))
                } else if ["toml", "yaml", "yml"].contains(ext) {
                    let (c, topics) = try CurriculumFile.load(path: source, now: library.store.clock())
                    try library.store.upsertCurriculum(c, topics: topics)
                    summary = ImportSummary(curricula: 1, topics: topics.count)
                } else if source == "-" || ["jsonl", "ndjson", "json"].contains(ext) {
                    let data = source == "-" ? FileHandle.standardInput.readDataToEndOfFile() : (FileManager.default.contents(atPath: source) ?? Data())
                    let text = try TextInput.decode(data, what: source == "-" ? "standard input" : source)
                    summary = try transfer.importJSONLines(text, origin: source == "-" ? "stdin" : source, skipInvalid: skipInvalid,
                                                           progress: Terminal.progress("Storing"))
                } else {
                    throw EngramError.invalidInput("\(source): cannot tell what this is; import a folder of Markdown notes, a .md note, a .jsonl file, or a .toml/.yaml curriculum")
                }
                for s in summary.skipped { Terminal.warn("skipped: \(s)") }
                total.memories += summary.memories; total.links += summary.links
                total.curricula += summary.curricula; total.topics += summary.topics
                total.skipped += summary.skipped
            }
            print(total.sentence)
            // Nudges a running daemon without waiting for a large import to be indexed.
            switch try IndexClient().makeSearchable(library, progress: Terminal.progress("Indexing"),
                                                    daemonTimeout: .milliseconds(200), embedInline: false) {
            case .appliedHere: break
            case .willBeApplied(let holder) where !holder.isDaemon:
                print("Another engram process is indexing; they become searchable when it is done.")
            case .appliedByDaemon, .willBeApplied:
                print("The running daemon is indexing them now.")
            }
        }
    }
}
