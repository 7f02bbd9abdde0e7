import ArgumentParser
import EngramCore
import Foundation
import EngramApp
import Indexer

/// `engram privacy`: which integrations may run, and clearing the usage history.
struct PrivacyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "privacy",
        abstract: "Show which integrations are off, or clear the usage history.",
        subcommands: [Show.self, ClearActivity.self], defaultSubcommand: Show.self)

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show which integrations are switched off in config.toml ([privacy]).")
        @OptionGroup var global: GlobalOptions
        func run() throws {
            try Terminal.reporting {
                let library = try global.library()
                for key in PrivacySettings.integrations {
                    print("\(key): \(library.config.disabledIntegrations.contains(key) ? "off" : "on")")
                }
            }
        }
    }

    struct ClearActivity: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "clear-activity", abstract: "Forget what you searched, opened and asked, and the suggestions made from it.")
        @OptionGroup var global: GlobalOptions
        func run() throws {
            try Terminal.reporting {
                let n = try global.library().store.clearActivity()
                print("Cleared \(n) activity entr\(n == 1 ? "y" : "ies") and the suggestions made from them; your memories are untouched.")
            }
        }
    }
}
