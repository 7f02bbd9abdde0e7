import ArgumentParser
import EngramCore

/// `engram config`: every setting `config.toml` can hold, and where the file is.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "List the settings config.toml can hold, or say where it is.",
        subcommands: [Keys.self, Path.self], defaultSubcommand: Keys.self)

    struct Keys: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "keys", abstract: "List every setting of config.toml: what it takes, its default and what it does.")
        @Flag(help: "Print it as Markdown tables (the reference in docs/configuration.md).") var markdown = false

        func run() throws {
            if markdown {
                print(ConfigSections.markdown(), terminator: "")
                return
            }
            for section in ConfigSections.all {
                print(Terminal.styled("[\(section.sectionName)]", .bold) + "  " + section.summary)
                for key in section.keys {
                    print("  \(key.name) = \(key.defaultValue.map(\.toml) ?? "(unset: \(key.unset))")")
                    print(Terminal.styled("      \(key.takes): \(key.summary)", .dim))
                }
                print()
            }
        }
    }

    struct Path: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "path", abstract: "Print where config.toml is (it may not exist yet).")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            print(global.paths.configPath)
        }
    }
}
