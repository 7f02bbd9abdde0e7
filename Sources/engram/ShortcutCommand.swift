import ArgumentParser
import EngramClient
import EngramCore
import Foundation
import EngramApp
import Indexer
import Intents
import Voice

/// `engram shortcut`: named multi-step shortcuts from config.toml.
struct ShortcutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shortcut",
        abstract: "List, run or bind your shortcuts ([[shortcuts]] in config.toml).",
        subcommands: [List.self, Run.self, Bind.self], defaultSubcommand: List.self)

    static func load(_ global: GlobalOptions) throws -> (Library, ShortcutConfig) {
        let library = try global.library()
        return (library, try ShortcutConfig(library.config, origin: library.paths.configPath))
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List your shortcuts and phrases.")
        @OptionGroup var global: GlobalOptions
        func run() throws {
            try Terminal.reporting {
                let (library, config) = try ShortcutCommand.load(global)
                if config.shortcuts.isEmpty && config.phrases.isEmpty {
                    print("No shortcuts yet. Add [[shortcuts]] and [phrases] to \(library.paths.configPath); Samples/config.toml has examples.")
                }
                for s in config.shortcuts {
                    print(Terminal.styled(s.name, .bold) + (s.key.map { "  (\($0))" } ?? "") + (s.summary.map { " — \($0)" } ?? ""))
                    for (i, step) in s.steps.enumerated() { print("  \(i + 1). \(Terminal.safe(step))") }
                }
                for p in config.phrases { print("phrase “\(Terminal.safe(p.template))” → \(p.intent.rawValue)") }
            }
        }
    }

    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "run", abstract: "Run a shortcut's steps in order.")
        @OptionGroup var global: GlobalOptions
        @Flag(help: "Read each result sentence aloud.") var speak = false
        @Flag(help: "Show the results as notifications through the daemon (the default without a terminal, as from a keybinding).") var notify = false
        @Argument(help: "The shortcut's name.") var name: [String]
        func run() throws {
            try Terminal.reporting {
                let (library, config) = try ShortcutCommand.load(global)
                let shortcut = try config.shortcut(named: name.joined(separator: " "))
                // From a keybinding nobody reads the output: the daemon runs it and shows each result as a notification,
                // and a step it is not sure of as its question with the readings as buttons.
                if notify || !Terminal.isInteractive, let sentences = try DaemonClient().runShortcut(shortcut.name) {
                    for s in sentences { print(Terminal.safe(s)) }
                    if speak { for s in sentences { try AnswerVoice.speak(s, settings: library.config.voice) } }
                    return
                }
                for r in try IntentRunner(library: library, source: "shortcut").run(shortcut) {
                    print(Terminal.safe(r.sentence))
                    for line in r.lines { print("  " + Terminal.safe(line)) }
                    if speak { try AnswerVoice.speak(r.sentence, settings: library.config.voice) }
                }
            }
        }
    }

    struct Bind: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "bind", abstract: "Print (or --install) a keybinding that runs a shortcut, or push-to-talk (--listen).")
        @OptionGroup var global: GlobalOptions
        @Option(name: .customLong("for"), help: "sway, i3, gnome or kde.") var desktop: String
        @Flag(help: "Write the binding instead of printing it.") var install = false
        @Flag(help: "Bind push-to-talk (`engram listen`: the first press listens, the second stops) instead of a shortcut.") var listen = false
        @Option(help: ArgumentHelp("With --listen: the key chord (Super+Shift+L).", valueName: "chord")) var key: String?
        @Argument(help: "The shortcut's name.") var name: [String] = []

        func validate() throws {
            if listen != name.isEmpty { throw ValidationError(listen ? "--listen binds push-to-talk; give no shortcut name" : "name the shortcut to bind, or --listen") }
        }
        func run() throws {
            try Terminal.reporting {
                guard let d = KeyBinding.Desktop(rawValue: desktop.lowercased()) else {
                    throw EngramError.invalidInput("--for takes sway, i3, gnome or kde")
                }
                let exe = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
                let executable = CommandLine.arguments[0].contains("/") ? exe : "engram"
                let binding: KeyBinding
                if listen {
                    binding = KeyBinding.pushToTalk(desktop: d, executable: executable, key: key)
                } else {
                    let (_, config) = try ShortcutCommand.load(global)
                    binding = KeyBinding(shortcut: try config.shortcut(named: name.joined(separator: " ")), desktop: d, executable: executable)
                }
                if install {
                    for line in try binding.install(home: NSHomeDirectory()) { print(line) }
                } else {
                    Terminal.write(binding.snippet())
                }
            }
        }
    }
}
