import ArgumentParser

/// The options of `engram feed` and `engram-feed`, parsed the same way by both.
public struct FeedOptions: ParsableArguments {
    @Argument(help: "The feed: motd, stats, session, review or recent.")
    public var name: FeedName

    @Option(name: .shortAndLong, help: "json, waybar, conky, conky-parsed, i3blocks, polybar, text, notify, rofi or dmenu.")
    public var format: FeedFormat = .text

    @Option(name: .shortAndLong, help: "small, medium or large, like widget families.")
    public var size: FeedSize = .medium

    @Flag(help: "With --format conky: escape for Conky's parsed execp/execpi (same as --format conky-parsed).")
    public var parsed = false

    @Option(name: .shortAndLong, help: "How many memories list feeds (recent, review) show.")
    public var limit: Int?

    @Flag(help: "Keep running: print a line each time the output changes (Waybar, polybar tail, i3blocks persist).")
    public var watch = false

    @Option(help: ArgumentHelp("With --watch: seconds between re-reads of the store.", valueName: "seconds"))
    public var interval: Double = 5

    @Option(name: .customLong("data-dir"), help: ArgumentHelp("Use this data folder instead of $XDG_DATA_HOME/engram.", valueName: "folder"))
    public var dataDirectory: String?

    public init() {}

    /// The sink, with `--parsed` folded in.
    public var sink: FeedFormat { parsed && format == .conky ? .conkyParsed : format }

    public func validate() throws {
        if parsed && format != .conky && format != .conkyParsed {
            throw ValidationError("--parsed only applies to --format conky")
        }
        if watch && !sink.streams {
            throw ValidationError("--watch prints one line per change, for json, waybar, i3blocks, polybar and text; \(sink.rawValue) runs the feed itself (use execi for Conky)")
        }
        if !(1...86_400).contains(interval) { throw ValidationError("--interval must be between 1 and 86400 seconds") }
        if let limit, !(1...10_000).contains(limit) { throw ValidationError("--limit must be between 1 and 10000") }
    }
}

extension FeedName: ExpressibleByArgument {}
extension FeedSize: ExpressibleByArgument {}
extension FeedFormat: ExpressibleByArgument {}
