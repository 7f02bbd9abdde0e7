import DBusWatch
import EngramRules
#if canImport(Glibc)
import Glibc
#endif

/// The daemon's change announcements on the session bus, for `--watch`, through the D-Bus layer's `DBusWatch`.
///
/// Not the `DBus` module: bars start the one-shot `engram-feed` every few seconds, and linking libdbus-1 would
/// make every one of those starts load it (a fifth of the feed's CPU). `DBusWatch` opens libdbus only when a
/// watching feed connects, and works from the feed's one thread without blocking: the watch loop polls
/// `pollEntries` together with the real-time signals and calls `service` with the result.
///
/// It subscribes to two signals and calls nobody: nothing starts the daemon. The bus matches the rule's `sender`
/// against the name's owner of the moment, so the subscription holds while the daemon stops and starts again.
final class DaemonBusWatch {
    /// What the bus said.
    enum Event: Equatable {
        /// The daemon announced a change, started or stopped, or the subscription just took effect:
        /// the store may hold something the feed has not shown.
        case changed
        /// The connection is gone (the bus went away, or refused the subscription).
        case lost
    }

    /// `PropertiesChanged` for `org.engram.Engram1`, which the daemon emits on every change, and the daemon
    /// starting or stopping (`NameOwnerChanged` for `org.engram.Engram`).
    static let rules = [
        DBusWatch.Rule(sender: EngramBus.name, path: EngramBus.appPath, interface: "org.freedesktop.DBus.Properties",
                       member: "PropertiesChanged", arg0: EngramBus.appInterface),
        DBusWatch.Rule(sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                       member: "NameOwnerChanged", arg0: EngramBus.name),
    ]

    private let watch: DBusWatch

    /// Connects to the session bus and subscribes; nil without a usable bus (or without libdbus).
    static func connect() -> DaemonBusWatch? {
        DBusWatch.connect(rules: rules).map(DaemonBusWatch.init)
    }

    private init(_ watch: DBusWatch) {
        self.watch = watch
    }

    /// What to poll for (nothing once the connection is gone).
    func pollEntries() -> [pollfd] { watch.pollEntries() }

    /// Lets the connection read and write what `ready` (the polled `pollEntries()`, in order) allows, then says what arrived.
    func service(_ ready: ArraySlice<pollfd>) -> Event? {
        switch watch.service(ready) {
        case nil:
            return nil
        case .matched?, .subscribed?:
            return .changed
        case .lost(let reason)?:
            if let reason { FeedOutput.warn("the session bus refused the feed's subscription (\(reason)); refreshing on the timer") }
            return .lost
        }
    }
}
