/// What `engram feed` and `engram-feed` were asked for, from one hand-written parser.
///
/// The lean binary does not link ArgumentParser: its reflection-driven parsing cost about as much as the
/// feed itself on every bar refresh. `engram feed` passes its arguments through to the same parser.
public struct FeedOptions: Sendable, Equatable {
    public var name: FeedName
    public var format: FeedFormat = .text
    public var size: FeedSize = .medium
    /// With `--format conky`: escape for Conky's parsed `execp`/`execpi`.
    public var parsed = false
    /// Entries for list feeds, or nil for the default.
    public var limit: Int?
    /// Keep running, printing one line per change.
    public var watch = false
    /// Seconds between re-reads of the store while watching.
    public var interval: Double = 5
    /// A data folder instead of `$XDG_DATA_HOME/engram`.
    public var dataDirectory: String?

    /// Options for `name` with every default.
    public init(name: FeedName) { self.name = name }

    /// The sink, with `--parsed` folded in.
    public var sink: FeedFormat { parsed && format == .conky ? .conkyParsed : format }
}

/// A usage error, said as a sentence (exit status 64).
public struct FeedUsageError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
