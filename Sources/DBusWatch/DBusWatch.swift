#if canImport(Glibc)
import Glibc
#endif

/// The D-Bus layer's lazy-loading signal watcher: subscribes to a few signals on a bus and says when one arrives,
/// for programs that must not link libdbus-1.
///
/// The `DBus` module links libdbus-1 and brings Dispatch, a bus thread and the concurrency runtime with it. A
/// program started every few seconds (the one-shot `engram-feed` a bar runs) cannot afford that: linking libdbus
/// makes every start load it and what it links (libsystemd, libgcrypt, liblzma, libzstd, liblz4, libcap,
/// libgpg-error), about a millisecond of CPU, a fifth of the feed. So this module links nothing: it opens libdbus
/// with `dlopen` only when `connect` is called, and is used from its caller's one thread, never blocking. The
/// caller polls `pollEntries()` together with its own descriptors and hands the result to `service(_:)`.
///
/// It sends the bus `Hello`, one `AddMatch` per rule and a `Ping`, and nothing else: no call goes to any other
/// peer, so nothing is started by D-Bus activation. The bus matches a rule's `sender` against the name's owner of
/// the moment, so a subscription to a well-known name holds while its owner stops and starts again.
///
///     let watch = DBusWatch.connect(rules: [DBusWatch.Rule(sender: "org.engram.Engram", path: "/org/engram/Engram",
///         interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged", arg0: "org.engram.Engram1")])
///     var fds = watch.pollEntries(); poll(&fds, nfds_t(fds.count), -1)
///     if watch.service(fds[...]) == .matched { … }
///
/// This and the `DBus` module are the only code that touches libdbus.
public final class DBusWatch {
    /// One signal to subscribe to: an `AddMatch` rule, and what incoming messages it stands for.
    public struct Rule: Sendable, Equatable {
        public var sender: String
        public var path: String
        public var interface: String
        public var member: String
        /// The first argument the signal must carry (a name, an interface), or nil for any.
        public var arg0: String?

        /// A rule for signal `interface.member` from `sender` at `path`. The values must be valid D-Bus names
        /// (no quotes or commas), as the constants callers pass are.
        public init(sender: String, path: String, interface: String, member: String, arg0: String? = nil) {
            self.sender = sender
            self.path = path
            self.interface = interface
            self.member = member
            self.arg0 = arg0
        }

        /// The rule as `AddMatch` reads it.
        public var matchRule: String {
            "type='signal',sender='\(sender)',path='\(path)',interface='\(interface)',member='\(member)'"
                + (arg0.map { ",arg0='\($0)'" } ?? "")
        }
    }

    /// What the bus said.
    public enum Event: Equatable, Sendable {
        /// A signal one of the rules names arrived.
        case matched
        /// The bus has applied the rules: from here on no matching signal is missed.
        case subscribed
        /// The connection is gone: the bus went away, or refused the subscription (`reason`, the D-Bus error name).
        case lost(reason: String?)
    }

    private let lib: LibDBus
    private let rules: [Rule]
    private var connection: OpaquePointer?
    /// The serial of the `Ping` sent after the rules: its reply means the bus has applied them.
    private var readySerial: UInt32 = 0

    /// Connects to the bus at `address` (by default the session bus, see `sessionBusAddress()`) and subscribes;
    /// nil without a usable bus, or when libdbus-1 is not installed.
    public static func connect(address: String? = nil, rules: [Rule]) -> DBusWatch? {
        guard let address = address ?? sessionBusAddress(), let lib = LibDBus.shared,
              let raw = lib.openPrivate(address, nil) else { return nil }
        let watch = DBusWatch(lib: lib, connection: raw, rules: rules)
        return watch.subscribe() ? watch : nil
    }

    /// The session bus address, or nil when there is none to use.
    ///
    /// Only the address is used: `DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus` when that socket exists.
    /// Never X11 autolaunch, which would start a bus (`autolaunch:` addresses are refused too).
    public static func sessionBusAddress() -> String? {
        if let value = getenv("DBUS_SESSION_BUS_ADDRESS").map({ String(cString: $0) }), !value.isEmpty {
            // (Not `String.contains`: the substring search comes from _StringProcessing, 2 MB in a static binary.)
            return value.split(separator: ";").contains { $0.hasPrefix("autolaunch:") } ? nil : value
        }
        guard let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), runtime.hasPrefix("/") else { return nil }
        var st = stat()
        guard stat(runtime + "/bus", &st) == 0, (st.st_mode & S_IFMT) == S_IFSOCK else { return nil }
        return "unix:path=" + runtime + "/bus"
    }

    /// Whether this process has loaded libdbus-1 (a watch was connected, or something else linked it).
    public static var libraryIsLoaded: Bool {
        dlopen("libdbus-1.so.3", RTLD_NOW | RTLD_NOLOAD).map { dlclose($0); return true } ?? false
    }

    private init(lib: LibDBus, connection: OpaquePointer, rules: [Rule]) {
        self.lib = lib
        self.connection = connection
        self.rules = rules
        lib.setExitOnDisconnect(connection, 0)
    }

    /// The watches libdbus keeps (socket, directions), updated by its callbacks on this thread.
    private final class Watches {
        var list: [OpaquePointer] = []
    }
    private let watches = Watches()
    /// The watches behind the last `pollEntries()`, in order.
    private var polled: [OpaquePointer] = []

    deinit { drop() }

    /// Queues `Hello`, the rules and a `Ping`; they go out as the socket accepts them.
    private func subscribe() -> Bool {
        guard let c = connection else { return false }
        let box = Unmanaged.passUnretained(watches).toOpaque()
        let added = lib.setWatchFunctions(c, { watch, box in
            guard let watch, let box else { return 0 }
            Unmanaged<Watches>.fromOpaque(box).takeUnretainedValue().list.append(watch)
            return 1
        }, { watch, box in
            guard let watch, let box else { return }
            Unmanaged<Watches>.fromOpaque(box).takeUnretainedValue().list.removeAll { $0 == watch }
        }, { _, _ in }, box, nil)
        guard added != 0, send(busCall("Hello")) != nil else { return false }
        for rule in rules { lib.addMatch(c, rule.matchRule, nil) }
        guard let serial = send(busCall("Ping", interface: "org.freedesktop.DBus.Peer")) else { return false }
        readySerial = serial
        return true
    }

    private func busCall(_ member: String, interface: String = "org.freedesktop.DBus") -> OpaquePointer? {
        let m = lib.newMethodCall("org.freedesktop.DBus", "/org/freedesktop/DBus", interface, member)
        if let m { lib.setAutoStart(m, 0) }
        return m
    }

    private func send(_ message: OpaquePointer?) -> UInt32? {
        guard let c = connection, let message else { return nil }
        defer { lib.messageUnref(message) }
        var serial: UInt32 = 0
        return lib.send(c, message, &serial) != 0 ? serial : nil
    }

    /// What to poll for: the socket, for the directions libdbus waits on now (none once the connection is gone).
    ///
    /// libdbus says which through its watches: while it authenticates it may have messages queued yet
    /// nothing it can write, so polling the socket for "writable" on our own would spin.
    public func pollEntries() -> [pollfd] {
        polled = connection == nil ? [] : watches.list.filter { lib.watchEnabled($0) != 0 }
        return polled.map { watch in
            let flags = lib.watchFlags(watch)
            var events: Int16 = 0
            if flags & Self.readable != 0 { events |= Int16(POLLIN) }
            if flags & Self.writable != 0 { events |= Int16(POLLOUT) }
            return pollfd(fd: lib.watchFD(watch), events: events, revents: 0)
        }
    }

    /// Lets libdbus read and write what `ready` (the polled `pollEntries()`, in order) allows, then sorts what
    /// arrived: nil when nothing that matters did. A lost connection is closed; later calls answer `.lost`.
    public func service(_ ready: ArraySlice<pollfd>) -> Event? {
        guard let c = connection else { return .lost(reason: nil) }
        for (watch, result) in zip(polled, ready) where result.revents != 0 {
            // Handling one watch may remove another; a removed one is freed.
            guard watches.list.contains(watch) else { continue }
            var flags: UInt32 = 0
            if result.revents & Int16(POLLIN) != 0 { flags |= Self.readable }
            if result.revents & Int16(POLLOUT) != 0 { flags |= Self.writable }
            if result.revents & Int16(POLLERR) != 0 { flags |= Self.error }
            if result.revents & Int16(POLLHUP) != 0 { flags |= Self.hangup }
            _ = lib.watchHandle(watch, flags)
        }
        var event: Event?
        func note(_ e: Event) {
            switch (event, e) {
            case (.lost?, _), (.matched?, .subscribed): break
            default: event = e
            }
        }
        while let message = lib.popMessage(c) {
            defer { lib.messageUnref(message) }
            switch lib.messageType(message) {
            case Self.signal where lib.isSignal(message, "org.freedesktop.DBus.Local", "Disconnected") != 0:
                note(.lost(reason: nil))
            case Self.signal where rules.contains(where: { lib.isSignal(message, $0.interface, $0.member) != 0 }):
                note(.matched)
            case Self.methodReturn where lib.replySerial(message) == readySerial:
                note(.subscribed)
            case Self.errorReply:  // a rule refused (too many match rules) or Hello failed
                note(.lost(reason: lib.errorName(message).map { String(cString: $0) } ?? "an error"))
            default:
                break
            }
        }
        if case .lost? = event {} else if lib.isConnected(c) == 0 { event = .lost(reason: nil) }
        if case .lost? = event { drop() }
        return event
    }

    // DBUS_MESSAGE_TYPE_METHOD_RETURN, _ERROR, _SIGNAL
    private static let methodReturn: Int32 = 2, errorReply: Int32 = 3, signal: Int32 = 4
    // DBUS_WATCH_READABLE, _WRITABLE, _ERROR, _HANGUP
    private static let readable: UInt32 = 1, writable: UInt32 = 2, error: UInt32 = 4, hangup: UInt32 = 8

    private func drop() {
        guard let c = connection else { return }
        connection = nil
        lib.close(c)
        lib.unref(c)
        watches.list = []
        polled = []
    }
}
