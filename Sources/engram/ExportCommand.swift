import ArgumentParser
import EngramCore
import Foundation
import EngramApp
import Indexer

/// `engram export`: everything as JSON Lines, losslessly re-importable.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export everything as JSON Lines.",
        discussion: "`engram export > backup.jsonl` and later `engram import backup.jsonl` give back the same collection.")

    @OptionGroup var global: GlobalOptions

    @Option(name: .shortAndLong, help: "Write to this file (created private, 0600) instead of standard output.")
    var output: String?

    func run() throws {
        try Terminal.reporting {
            let library = try global.library()
            let transfer = Transfer(store: library.store)
            if let output {
                let tmp = output + ".partial-\(getpid())"
                let fd = open(tmp, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o600)
                guard fd >= 0 else { throw EngramError.io("cannot write \(output): \(String(cString: strerror(errno)))") }
                let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
                do {
                    try transfer.export { try handle.write(contentsOf: Data($0.utf8)) }
                    try handle.synchronize()
                    try handle.close()
                } catch {
                    unlink(tmp)
                    throw EngramError.io("cannot write \(output): \(error.localizedDescription); nothing was written")
                }
                guard rename(tmp, output) == 0 else {
                    unlink(tmp)
                    throw EngramError.io("cannot write \(output): \(String(cString: strerror(errno)))")
                }
            } else {
                var buffer = ""
                try transfer.export { line in
                    buffer += line
                    if buffer.utf8.count > 1 << 16 { Terminal.write(buffer); buffer = "" }
                }
                Terminal.write(buffer)
            }
        }
    }
}
