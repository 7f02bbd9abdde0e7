import DBus
import EngramTestSupport
import Foundation
import Glibc
import Testing

/// `engram-feed --watch` on a private session bus with the real daemon: bars update the moment a memory
/// is captured, not at the next tick of their interval.
@Suite struct FeedWatchTests {
    typealias D = DaemonFixture

    /// Starts the daemon the way a desktop does: a call to its name, which the bus activates.
    func startDaemon(_ d: DaemonFixture) throws -> Int32 {
        _ = try d.call(D.appPath, "org.freedesktop.DBus.Properties", "Get", [.string(D.app), .string("MemoryCount")])
        return try #require(try d.daemonPID())
    }

    @Test func aWatchingFeedShowsACaptureWhenTheDaemonAnnouncesIt() async throws {
        try await withDaemon { d in
            _ = try startDaemon(d)
            // Ten minutes between timer refreshes, and no real-time signal: only the bus can bring a change.
            let feed = try WatchingFeed(["recent", "--format", "waybar", "--limit", "1", "--watch", "--interval", "600"],
                                        environment: d.environment)
            defer { feed.stop() }
            #expect(await feed.waitForLine { !$0.isEmpty })

            // The first capture shows either through the render the feed makes once its subscription is in
            // place, or through the daemon's signal; either way the feed is subscribed once it shows.
            #expect(try d.engram(["remember", "A heron on the weir"]).status == 0)
            #expect(await feed.waitForLine { $0.contains("A heron on the weir") }, "lines: \(feed.lines)")
            // So this one can only arrive by the daemon's PropertiesChanged.
            #expect(try d.engram(["remember", "A kingfisher under the bridge"]).status == 0)
            #expect(await feed.waitForLine { $0.contains("A kingfisher under the bridge") }, "lines: \(feed.lines)")
            #expect(feed.isRunning)
        }
    }

    @Test func aWatchStartedWithoutTheDaemonRunsOnItsTimerThenFollowsTheDaemon() async throws {
        try await withDaemon { d in
            let onTimer = try WatchingFeed(["recent", "--format", "waybar", "--limit", "1", "--watch", "--interval", "1"],
                                           environment: d.environment)
            defer { onTimer.stop() }
            let pushed = try WatchingFeed(["recent", "--format", "waybar", "--limit", "1", "--watch", "--interval", "600"],
                                          environment: d.environment)
            defer { pushed.stop() }
            #expect(await onTimer.waitForLine { !$0.isEmpty })
            #expect(await pushed.waitForLine { !$0.isEmpty })

            // No daemon: the CLI stores the capture and the timer brings it to the bar.
            #expect(try d.engram(["remember", "Otter tracks in the snow"]).status == 0)
            #expect(await onTimer.waitForLine { $0.contains("Otter tracks in the snow") }, "lines: \(onTimer.lines)")
            #expect(try d.daemonPID() == nil, "a watching feed started the daemon")
            #expect(!d.bus.log.contains("Activating service"), "a watching feed asked the bus to start the daemon: \(d.bus.log)")

            // The daemon starts: the ten-minute feed shows what was captured while none ran, then follows it.
            let daemon = try startDaemon(d)
            #expect(await pushed.waitForLine { $0.contains("Otter tracks in the snow") }, "lines: \(pushed.lines)")
            #expect(try d.engram(["remember", "A beaver dam downstream"]).status == 0)
            #expect(await pushed.waitForLine { $0.contains("A beaver dam downstream") }, "lines: \(pushed.lines)")

            // The bus goes away mid-watch: both feeds keep running, and the timer still refreshes.
            d.bus.stop()
            kill(daemon, SIGTERM)  // the fixture finds the daemon through the bus, which is gone
            #expect(D.waitForExit(daemon, timeout: 20))
            #expect(try d.engram(["remember", "Written with no bus at all"]).status == 0)
            #expect(await onTimer.waitForLine { $0.contains("Written with no bus at all") }, "lines: \(onTimer.lines)")
            #expect(onTimer.isRunning && pushed.isRunning, "a feed died with the bus")
        }
    }
}

/// A watching `engram-feed`, its lines read as they arrive.
final class WatchingFeed: @unchecked Sendable {
    /// `engram-feed` beside `engram`.
    static let binary = URL(fileURLWithPath: DaemonFixture.engramBinary).deletingLastPathComponent()
        .appendingPathComponent("engram-feed").path

    private let child: ChildProcess
    private let output: Int32
    private let lock = NSLock()
    private var buffer: [UInt8] = []

    init(_ arguments: [String], environment: [String: String]) throws {
        let pipe = try ChildPipe()
        do {
            defer { close(pipe.write) }
            child = try ChildProcess.spawn(Self.binary, arguments, environment: environment, stdout: pipe.write)
        }
        output = pipe.read
        _ = fcntl(output, F_SETFL, fcntl(output, F_GETFL) | O_NONBLOCK)
    }

    /// The complete lines printed so far.
    var lines: [String] {
        lock.withLock {
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = read(output, &chunk, chunk.count)
                guard n > 0 else { break }
                buffer += chunk[0..<n]
            }
            let text = String(decoding: buffer, as: UTF8.self)
            return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }
    }

    var isRunning: Bool { child.isRunning }

    /// Waits (up to a generous deadline: the machine may be busy) for a line that satisfies `condition`.
    func waitForLine(timeout: Duration = .seconds(30), _ condition: (String) -> Bool) async -> Bool {
        await eventually(timeout: timeout) { lines.contains(where: condition) }
    }

    /// Ends the feed with SIGTERM, as a bar does.
    func stop() {
        child.signal(SIGTERM)
        if !DaemonFixture.waitForExit(child.pid, timeout: 5) { child.kill() }
        child.wait()
        close(output)
    }
}
