import ArgumentParser
import EngramCore
import Foundation
import Glibc

/// The `engram` command: memories and learning, close at hand on the Linux desktop.
@main
struct EngramCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "engram",
        abstract: "Keep your memories and learning close at hand on the Linux desktop.",
        discussion: """
            Data lives in $XDG_DATA_HOME/engram (override with ENGRAM_DATA_DIR), config in \
            $XDG_CONFIG_HOME/engram/config.toml.

            Exit status: 0 success, 1 no results, 64 usage error, 65 bad input, 66 not found, \
            74 input/output error, 75 temporarily busy, 78 bad config.
            """,
        version: EngramVersion.current,
        subcommands: [
            RememberCommand.self, SearchCommand.self, ShowCommand.self, RelatedCommand.self,
            TagCommand.self, UntagCommand.self, PinCommand.self, ForgetCommand.self,
            ImportCommand.self, ExportCommand.self, IndexCommand.self, StatsCommand.self,
            OpenCommand.self, SessionCommand.self, CaptureCommand.self, NotificationCloseCommand.self,
            AskCommand.self, ShortcutCommand.self, ContextCommand.self, AnalyticsCommand.self,
            ConnectionsCommand.self, PrivacyCommand.self, ConfigCommand.self, SyncCommand.self, HandoffCommand.self,
            DaemonCommand.self, MCPCommand.self, ListenCommand.self,
            FeedCommand.self,
        ])

    static func main() {
        // A file-size limit (ulimit -f) would kill us with SIGXFSZ in the middle of a write; ignored, the write
        // fails with EFBIG and the command says what happened (SQLite and Xapian roll back what was half-done).
        signal(SIGXFSZ, SIG_IGN)
        refuseInvalidUTF8Arguments()
        main(nil)
    }

    /// Exits with 65 when an argument is not UTF-8, as standard input is refused: Swift would otherwise turn its
    /// bad bytes into U+FFFD, and a memory captured from it would silently differ from what was typed.
    static func refuseInvalidUTF8Arguments() {
        for index in 1..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index] else { continue }
            let bytes = Data(bytes: argument, count: strlen(argument))
            guard String(validating: bytes, as: UTF8.self) == nil else { continue }
            let error = TextInput.invalidUTF8(what: "argument \(index)", offset: TextInput.firstInvalidOffset(bytes), lossyHint: false)
            Terminal.warn(error.description)
            Glibc.exit(65)
        }
    }
}
