/// Parses feed arguments: `NAME [--format F] [--size S] [--parsed] [--limit N] [--watch] [--interval S] [--data-dir DIR]`.
public enum FeedArguments {
    /// What `--help` prints, after the command name.
    public static let usage = """
        NAME [--format FORMAT] [--size SIZE] [--parsed] [--limit N] [--watch [--interval SECONDS]] [--data-dir FOLDER]

        Print a feed for a status bar, desktop widget or terminal.

          NAME                  motd, stats, session, review or recent
          -f, --format FORMAT   json, waybar, conky, conky-parsed, i3blocks, polybar, text (default),
                                notify, rofi or dmenu
          -s, --size SIZE       small, medium (default) or large, like widget families
          --parsed              with --format conky: escape for Conky's parsed execp/execpi
          -l, --limit N         how many memories list feeds (recent, review) show
          --watch               keep running: one line per change (Waybar, polybar tail, i3blocks persist);
                                refreshes at once when engram daemon announces a change on the session
                                bus, and on any real-time signal (pkill -RTMIN+N)
          --interval SECONDS    with --watch: seconds between re-reads of the store (default 5)
          --data-dir FOLDER     use this data folder instead of $XDG_DATA_HOME/engram
          -h, --help            show this help

        Feeds read the store read-only and never write it. The active context filters them; the sleep
        context and `[privacy] feeds = false` make them quiet (bars hide the module).
        JSON schema: Integrations/FEEDS-SCHEMA.md. Exit status: 0 (also when quiet), 64 usage, 74 store unreadable.

        Examples:
          engram-feed motd --format waybar --size small
          engram-feed session --format waybar --watch
          engram-feed stats --format conky --size large
        """

    /// The parsed options, or nil when help was asked for.
    public static func parse(_ arguments: [String]) throws(FeedUsageError) -> FeedOptions? {
        var name: FeedName?
        var o = FeedOptions(name: .motd)
        var i = 0
        func value(_ flag: String, inline: String?) throws(FeedUsageError) -> String {
            if let inline { return inline }
            i += 1
            guard i < arguments.count else { throw FeedUsageError("\(flag) needs a value") }
            return arguments[i]
        }
        func choice<T: RawRepresentable & CaseIterable>(_ flag: String, _ text: String, _: T.Type) throws(FeedUsageError) -> T where T.RawValue == String {
            if let v = T(rawValue: text) { return v }
            throw FeedUsageError("\(flag) '\(text)' is not one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        while i < arguments.count {
            let arg = arguments[i]
            var flag = arg
            var inline: String?
            if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                flag = String(arg[..<eq])
                inline = String(arg[arg.index(after: eq)...])
            }
            switch flag {
            case "-h", "--help": return nil
            case "-f", "--format": o.format = try choice("--format", try value(flag, inline: inline), FeedFormat.self)
            case "-s", "--size": o.size = try choice("--size", try value(flag, inline: inline), FeedSize.self)
            case "--parsed": o.parsed = true
            case "--watch": o.watch = true
            case "-l", "--limit":
                let text = try value(flag, inline: inline)
                guard let n = Int(text), (1...10_000).contains(n) else { throw FeedUsageError("--limit must be a whole number from 1 to 10000, not '\(text)'") }
                o.limit = n
            case "--interval":
                let text = try value(flag, inline: inline)
                guard let s = Double(text), (1...86_400).contains(s) else { throw FeedUsageError("--interval must be between 1 and 86400 seconds, not '\(text)'") }
                o.interval = s
            case "--data-dir": o.dataDirectory = try value(flag, inline: inline)
            default:
                if arg.hasPrefix("-") && arg != "-" { throw FeedUsageError("unknown option '\(arg)'") }
                guard name == nil else { throw FeedUsageError("one feed at a time: '\(arg)' is extra") }
                name = try choice("feed", arg, FeedName.self)
            }
            i += 1
        }
        guard let name else { throw FeedUsageError("which feed? motd, stats, session, review or recent") }
        o.name = name
        if o.parsed && o.format != .conky && o.format != .conkyParsed { throw FeedUsageError("--parsed only applies to --format conky") }
        if o.watch && !o.sink.streams {
            throw FeedUsageError("--watch prints one line per change, for json, waybar, i3blocks, polybar and text; \(o.sink.rawValue) runs the feed itself (use execi for Conky)")
        }
        return o
    }
}
