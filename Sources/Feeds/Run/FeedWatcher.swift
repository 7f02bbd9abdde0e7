/// Keeps a feed on screen: renders, prints only when the output changed, waits for the next wake, repeats.
///
/// One line per change suits Waybar (no `interval`), polybar (`tail = true`) and i3blocks
/// (`interval=persist`). It stops when the reader goes away: a write fails, or between writes `readerGone`
/// says so (the bar died without killing its modules), so no feed outlives its bar for long.
public struct FeedWatcher {
    /// The longest wait between renders, in seconds.
    public var interval: Double

    /// Creates a watcher.
    public init(interval: Double) { self.interval = interval }

    /// Runs until `write` fails or `maxUpdates` renders were made (tests); returns the number of lines written.
    @discardableResult
    public func run<R: FeedRefreshSource>(refresh: inout R, maxUpdates: Int? = nil, render: () -> String,
                                          write: (String) -> Bool, readerGone: () -> Bool = { false }) -> Int {
        var last: String?
        var written = 0
        var renders = 0
        while true {
            let out = render()
            renders += 1
            if out != last {
                guard write(out) else { return written }
                written += 1
                last = out
            }
            if let maxUpdates, renders >= maxUpdates { return written }
            _ = refresh.wait(upTo: interval)
            if readerGone() { return written }
        }
    }
}
