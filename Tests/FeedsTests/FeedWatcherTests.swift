import Feeds
import Testing

/// The watch loop, with a scripted clock of wakes instead of signals and timers.
@Suite struct FeedWatcherTests {
    /// Wakes at once, counting how often it was asked.
    struct Immediate: FeedRefreshSource {
        var waits = 0
        mutating func wait(upTo seconds: Double) -> FeedWake { waits += 1; return .timer }
    }

    @Test("a line is printed only when the output changed")
    func onlyChanges() {
        var outputs = ["a", "a", "b", "b", "b", "a", "c"].makeIterator()
        var written: [String] = []
        var refresh = Immediate()
        let n = FeedWatcher(interval: 5).run(refresh: &refresh, maxUpdates: 7, render: { outputs.next()! },
                                             write: { written.append($0); return true })
        #expect(written == ["a", "b", "a", "c"])
        #expect(n == 4)
        #expect(refresh.waits == 6)
    }

    @Test("it stops when a write fails or the reader is gone")
    func stops() {
        var refresh = Immediate()
        var count = 0
        FeedWatcher(interval: 5).run(refresh: &refresh, render: { count += 1; return "\(count)" }, write: { _ in count < 3 })
        #expect(count == 3)
        var renders = 0
        FeedWatcher(interval: 5).run(refresh: &refresh, render: { renders += 1; return "same" }, write: { _ in true },
                                     readerGone: { renders >= 4 })
        #expect(renders == 4)
    }
}
