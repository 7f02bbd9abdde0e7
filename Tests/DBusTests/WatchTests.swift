import DBus
import DBusWatch
import EngramTestSupport
import Foundation
import Glibc
import Testing

/// `DBusWatch`, the layer's libdbus-free-at-link-time watcher, on a real private bus: it hears the signals its rules
/// name and nothing else, follows a well-known name's new owner, and says when the bus goes away.
@Suite struct WatchTests {
    static let rule = DBusWatch.Rule(sender: "com.example.Watched", path: "/com/example/Watched", interface: "com.example.Watched",
                                     member: "Changed", arg0: "memories")

    /// Polls the watch (as a feed's loop does) until it reports something or `seconds` pass.
    static func next(_ watch: DBusWatch, within seconds: Double = 10) -> DBusWatch.Event? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            var fds = watch.pollEntries()
            if fds.isEmpty { return watch.service([]) }
            let ready = poll(&fds, nfds_t(fds.count), 100)
            if ready > 0, let event = watch.service(fds[...]) { return event }
        }
        return nil
    }

    @Test func hearsItsSignalsOnlyAndSaysWhenTheBusGoesAway() async throws {
        let bus = try await PrivateBus.start()
        defer { bus.stop() }
        let watch = try #require(DBusWatch.connect(address: bus.address, rules: [Self.rule]), "no watch on \(bus.address)")
        #expect(Self.next(watch) == .subscribed)

        let owner = try bus.connect()
        #expect(try owner.requestName("com.example.Watched") == .primaryOwner)
        func emit(_ from: DBusConnection, member: String = "Changed", _ arg0: String) throws {
            try from.emit(path: "/com/example/Watched", interface: "com.example.Watched", signal: member, arguments: [.string(arg0)])
        }
        // Another argument, another member, another sender: not ours.
        let impostor = try bus.connect()
        defer { impostor.close() }
        try emit(owner, "topics")
        try emit(owner, member: "Removed", "memories")
        try emit(impostor, "memories")
        #expect(Self.next(watch, within: 0.5) == nil)
        try emit(owner, "memories")
        #expect(Self.next(watch) == .matched)

        // The name changes hands: the rule follows it.
        owner.close()
        let successor = try bus.connect()
        defer { successor.close() }
        #expect(try successor.requestName("com.example.Watched") == .primaryOwner)
        try emit(successor, "memories")
        #expect(Self.next(watch) == .matched)

        kill(bus.pid, SIGKILL)
        #expect(Self.next(watch) == .lost(reason: nil))
        #expect(watch.pollEntries().isEmpty, "a lost watch has nothing to poll")
        #expect(watch.service([]) == .lost(reason: nil))
    }

    @Test func noBusNoWatch() {
        #expect(DBusWatch.connect(address: "unix:path=/nonexistent/engram-no-bus", rules: [Self.rule]) == nil)
    }
}
