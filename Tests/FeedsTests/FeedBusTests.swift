import EngramCore
import Feeds
import Foundation
import Testing

/// A feed and the session bus, without a real bus: a listening socket stands in for it, so the test sees
/// every connection a feed makes. The real bus and daemon are in Tests/DaemonTests/FeedWatchTests.swift.
extension FeedProcessTests {
    @Test("one-shot feeds never connect to the session bus; --watch does, and outlives a bus that hangs or goes away")
    func sessionBusOnlyWhenWatching() throws {
        let f = try FeedFixture()
        let bus = try ListeningSocket(path: f.dir.path + "/bus")
        defer { bus.close() }
        var env = Self.environment(f, now: nil)
        env["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(bus.path),guid=0123456789abcdef0123456789abcdef"

        for name in FeedName.allCases {
            let out = try Self.run([name.rawValue, "--format", "waybar"], env: env)
            #expect(out.status == 0, "\(name): \(out.stderr)")
        }
        #expect(bus.accept(within: 0) == nil, "a one-shot feed connected to the session bus")

        // Each capture a moment after the last, so `recent --limit 1` shows it.
        func capture(_ text: String) throws {
            f.clock.set(Date())
            _ = try f.store.remember(MemoryDraft(content: text, source: "test"))
        }
        try capture("Before the bus")
        let watch = try Watch(["recent", "--format", "waybar", "--limit", "1", "--watch", "--interval", "1"], env: env)
        defer { watch.stop() }
        #expect(watch.waitForLine(containing: "Before the bus", seconds: 20))
        let peer = try #require(bus.accept(within: 20), "the watching feed never connected to the session bus")

        // A bus that never answers holds nothing up: the timer still refreshes the feed, which waits quietly.
        let pid = watch.process.processIdentifier
        var readsBefore = Self.readSyscalls(pid)
        try capture("The bus is mute")
        #expect(watch.waitForLine(containing: "The bus is mute", seconds: 20))
        try capture("Still mute")
        #expect(watch.waitForLine(containing: "Still mute", seconds: 20))
        var reads = Self.readSyscalls(pid) - readsBefore
        // Two renders take a few hundred reads; a loop on a socket that is never ready takes hundreds of thousands a second.
        #expect(reads < 20_000, "the feed made \(reads) read calls across two timer refreshes: it is spinning")

        // The bus goes away mid-watch: the feed keeps running on its timer, without spinning on the dead socket.
        Glibc.close(peer)
        bus.close()
        readsBefore = Self.readSyscalls(pid)
        try capture("The bus is gone")
        #expect(watch.waitForLine(containing: "The bus is gone", seconds: 20))
        try capture("Still on the timer")
        #expect(watch.waitForLine(containing: "Still on the timer", seconds: 20))
        #expect(watch.process.isRunning, "the feed died with the bus")
        reads = Self.readSyscalls(pid) - readsBefore
        #expect(reads < 20_000, "after the bus went away the feed made \(reads) read calls across two timer refreshes: it is spinning")
    }

    @Test("engram-feed links neither libdbus nor Foundation; one-shot runs never load libdbus, --watch loads it when it starts")
    func libdbusOnlyWhenWatching() throws {
        let ldd = try Self.run([Self.binary], env: ["PATH": "/usr/bin:/bin"], executable: "/usr/bin/ldd")
        #expect(ldd.status == 0, "ldd: \(ldd.stderr)")
        #expect(ldd.stdout.contains("libsqlite3"), "ldd printed no libraries: \(ldd.stdout)")
        for library in ["libdbus-1", "libFoundation"] {
            #expect(!ldd.stdout.contains(library), "engram-feed links \(library):\n\(ldd.stdout)")
        }

        let f = try FeedFixture.standard()
        let bus = try ListeningSocket(path: f.dir.path + "/bus")
        defer { bus.close() }
        var env = Self.environment(f, now: nil)
        env["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(bus.path),guid=0123456789abcdef0123456789abcdef"
        env["LD_DEBUG"] = "libs"  // the dynamic loader names every library it loads, on stderr
        for name in FeedName.allCases {
            let out = try Self.run([name.rawValue, "--format", "waybar"], env: env)
            #expect(out.status == 0, "\(name): \(out.stderr.suffix(500))")
            #expect(out.stderr.contains("calling init:"), "LD_DEBUG said nothing: \(out.stderr.prefix(300))")
            #expect(!out.stderr.contains("libdbus-1"), "a one-shot \(name) feed loaded libdbus")
        }

        env["LD_DEBUG"] = nil
        let watch = try Watch(["motd", "--format", "waybar", "--watch", "--interval", "60"], env: env)
        defer { watch.stop() }
        #expect(watch.waitForLines(1, seconds: 20))
        #expect(bus.accept(within: 20) != nil, "the watching feed never connected to the session bus")
        let maps = String(decoding: FileHandle(forReadingAtPath: "/proc/\(watch.process.processIdentifier)/maps")?.readDataToEndOfFile() ?? Data(),
                          as: UTF8.self)
        #expect(maps.contains("libdbus-1.so"), "a watching feed connected without loading libdbus?")
    }

    /// The read system calls process `pid` has made (`syscr` in /proc/PID/io).
    static func readSyscalls(_ pid: Int32) -> Int {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix("syscr:") } ?? ""
        return Int(line.dropFirst("syscr:".count).trimmingCharacters(in: .whitespaces)) ?? 0
    }
}

extension FeedProcessTests.Watch {
    /// Waits up to `seconds` for a line containing `text`.
    func waitForLine(containing text: String, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if lines.contains(where: { $0.contains(text) }) { return true }
            usleep(20_000)
        }
        return lines.contains { $0.contains(text) }
    }
}

/// A Unix socket that listens and never speaks: a session bus address nobody answers on.
final class ListeningSocket {
    let path: String
    private var fd: Int32

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard fd >= 0, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw Failure("no socket for \(path)") }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(fd, 8) == 0 else { throw Failure("cannot listen on \(path): errno \(errno)") }
    }

    /// Accepts a connection made by now or within `seconds`; nil when none came.
    func accept(within seconds: Double) -> Int32? {
        guard fd >= 0 else { return nil }
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, Int32(max(0, min(100, deadline.timeIntervalSinceNow * 1000)))) > 0 {
                let peer = Glibc.accept(fd, nil, nil)
                return peer >= 0 ? peer : nil
            }
        } while Date() < deadline
        return nil
    }

    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
        unlink(path)
    }

    deinit { close() }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ d: String) { description = d }
    }
}
