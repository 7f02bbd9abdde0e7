#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a feed from the command line: once, or watching; returns the exit status.
public enum FeedRunner {
    /// Prints the feed `options` ask for; 0 on success, 74 when the store could not be read.
    public static func run(_ options: FeedOptions) -> Int32 {
        var paths = EngramPaths.fromEnvironment()
        if let dir = options.dataDirectory {
            paths.useDataDirectory(dir)
        }
        let config = FeedConfig.load(from: paths.configPath)
        for w in config.warnings { FeedOutput.warn(w) }
        let request = FeedRequest(options.name, size: options.size, limit: options.limit)
        let renderer = options.sink.renderer
        var reader = StoreReader(path: paths.storePath)

        func update() -> (text: String, failed: Bool) {
            let env = FeedEnvironment(now: WallClock.now(), calendar: .system, config: config)
            let result = reader.build(request, env)
            if result.state == .error, let m = result.message { FeedOutput.warn(m) }
            if options.watch, options.sink == .i3blocks { return (I3blocksRenderer().persistLine(result), result.state == .error) }
            return (renderer.render(result), result.state == .error)
        }

        guard options.watch else {
            FeedSignals.ignoreForOneShot()
            let (text, failed) = update()
            guard FeedOutput.line(text) else { return 74 }
            return failed ? 74 : 0
        }
        // Only a watching feed touches the session bus: one-shot runs never load libdbus nor connect.
        var refresh = DaemonRefresh()
        let parent = getppid()
        FeedWatcher(interval: options.interval).run(refresh: &refresh, render: { update().text }, write: FeedOutput.line,
                                                    readerGone: { FeedOutput.readerGone(parent: parent) })
        return 0
    }
}

/// Opens the store on first use and keeps it open, retrying while it does not exist yet.
struct StoreReader {
    let path: String
    private var source: SQLiteFeedSource?

    init(path: String) { self.path = path }

    mutating func build(_ request: FeedRequest, _ env: FeedEnvironment) -> FeedResult {
        if source == nil {
            do {
                source = try SQLiteFeedSource(path: path)
            } catch {
                return Feeds.failure(request, error, at: env.now)
            }
        }
        return Feeds.build(request, from: source!, in: env)
    }
}
