import ArgumentParser

/// `engram-feed`: the lean feed binary bars run every few seconds (the same as `engram feed`).
public struct EngramFeedCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "engram-feed",
        abstract: "Print a feed for a status bar, desktop widget or terminal (the same as `engram feed`).",
        discussion: FeedHelp.discussion)

    @OptionGroup public var options: FeedOptions

    public init() {}

    public func run() throws {
        let status = FeedRunner.run(options)
        if status != 0 { throw ExitCode(status) }
    }
}

/// Help text shared by `engram feed` and `engram-feed`.
public enum FeedHelp {
    /// The longer help.
    public static let discussion = """
        Feeds read the store read-only and never write it. The active context filters them; the sleep \
        context and `[privacy] feeds = false` make them quiet (bars hide the module).

        Examples:
          engram-feed motd --format waybar --size small
          engram-feed session --format waybar --watch
          engram-feed stats --format conky --size large
          engram-feed review --format notify | { read -r s; notify-send -a Engram -- "$s" "$(cat)"; }

        JSON schema: Integrations/FEEDS-SCHEMA.md. Exit status: 0 (also when quiet), 64 usage, 74 store unreadable.
        """
}
