import ArgumentParser
import Feeds

/// `engram feed`: a feed for a status bar, desktop widget or terminal (bars can run the leaner `engram-feed`).
struct FeedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed",
        abstract: "Print a feed for a status bar, desktop widget or terminal.",
        discussion: FeedHelp.discussion)

    @OptionGroup var options: FeedOptions

    func run() throws {
        let status = FeedRunner.run(options)
        if status != 0 { throw ExitCode(status) }
    }
}
