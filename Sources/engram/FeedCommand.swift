import ArgumentParser
import Feeds

/// `engram feed`: a feed for a status bar, desktop widget or terminal; the same parser and output as the
/// lean `engram-feed` that bars run every few seconds.
struct FeedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed",
        abstract: "Print a feed for a status bar, desktop widget or terminal.",
        discussion: "engram feed " + FeedArguments.usage,
        helpNames: [])

    @Argument(parsing: .captureForPassthrough, help: "NAME and options; `engram feed --help` lists them.")
    var arguments: [String] = []

    func run() throws {
        FeedSignals.ignoreForOneShot()
        let status = FeedMain.run(arguments: arguments, commandName: "engram feed")
        if status != 0 { throw ExitCode(status) }
    }
}
