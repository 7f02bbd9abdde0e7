import ArgumentParser
import EngramCore
import Foundation
import EngramApp
import Indexer
import Intents

/// `engram context`: what search, feeds and review show (work, personal, sleep or your own).
struct ContextCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "context",
        abstract: "Set, show or clear the active context; sleep hides everything.",
        subcommands: [Show.self, Set_.self, Clear.self, FollowDND.self], defaultSubcommand: Show.self)

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show the active context.")
        @OptionGroup var global: GlobalOptions
        @Flag(help: "Print as JSON.") var json = false
        func run() throws {
            try Terminal.reporting {
                let control = ContextControl(store: try global.library().store)
                try control.sync()
                if json {
                    try Terminal.printJSON(["context": try control.current() ?? "", "followDND": String(try control.followsDND())])
                } else {
                    print(try control.describe())
                }
            }
        }
    }

    struct Set_: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "set", abstract: "Make NAME the active context (work, personal, sleep, …).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The context.") var name: String
        func run() throws {
            try Terminal.reporting {
                let control = ContextControl(store: try global.library().store)
                try control.set(name)
                print(try control.describe())
            }
        }
    }

    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "clear", abstract: "Show everything again.")
        @OptionGroup var global: GlobalOptions
        func run() throws {
            try Terminal.reporting {
                let control = ContextControl(store: try global.library().store)
                try control.clear()
                print(try control.describe())
            }
        }
    }

    struct FollowDND: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "follow-dnd", abstract: "on: switch to sleep while GNOME's do-not-disturb is on.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "on or off.") var state: String
        func validate() throws {
            guard ["on", "off"].contains(state) else { throw ValidationError("follow-dnd takes on or off") }
        }
        func run() throws {
            try Terminal.reporting {
                let control = ContextControl(store: try global.library().store)
                try control.setFollowDND(state == "on")
                print(try control.describe())
            }
        }
    }
}
