#if canImport(Glibc)
import Glibc
#endif

/// The daemon's change announcements on the session bus, for `--watch`. The Feeds module's only libdbus code.
///
/// Why raw libdbus here rather than the DBus module: bars start the one-shot `engram-feed` every few
/// seconds, and linking libdbus-1 would make every one of those starts load it and what it links
/// (libsystemd, libgcrypt, liblzma, libzstd, liblz4, libcap, libgpg-error): about a millisecond of CPU,
/// a fifth of the feed. The DBus module adds Dispatch, a bus thread and the concurrency runtime on top.
/// So only a watching feed opens libdbus (`dlopen`), and uses it from its one thread, never blocking:
/// the watch loop polls `pollEntries` together with the real-time signals and calls `service` with the result.
///
/// It sends the bus `Hello` and two `AddMatch` rules and nothing else: no call ever goes to
/// `org.engram.Engram`, so nothing starts the daemon. The bus matches the rule's `sender` against the
/// name's owner of the moment, so the subscription holds while the daemon stops and starts again.
final class DaemonBusWatch {
    /// What the bus said.
    enum Event: Equatable {
        /// The daemon announced a change, started or stopped, or the subscription just took effect:
        /// the store may hold something the feed has not shown.
        case changed
        /// The connection is gone (the bus went away, or refused the subscription).
        case lost
    }

    /// `PropertiesChanged` for `org.engram.Engram1`, which the daemon emits on every change.
    static let changeRule = "type='signal',sender='org.engram.Engram',path='/org/engram/Engram',"
        + "interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',arg0='org.engram.Engram1'"
    /// The daemon starting or stopping.
    static let ownerRule = "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
        + "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='org.engram.Engram'"

    private let lib: LibDBus
    private var connection: OpaquePointer?
    /// The serial of the `Ping` sent after the rules: its reply means the bus has applied them.
    private var readySerial: UInt32 = 0

    /// Connects to the session bus and subscribes; nil without a usable bus (or without libdbus).
    ///
    /// Only the address is used: `DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus` when that socket
    /// exists. Never X11 autolaunch, which would start a bus (`autolaunch:` addresses are refused too).
    static func connect() -> DaemonBusWatch? {
        guard let address = sessionBusAddress(), let lib = LibDBus.shared,
              let raw = lib.openPrivate(address, nil) else { return nil }
        let watch = DaemonBusWatch(lib: lib, connection: raw)
        return watch.subscribe() ? watch : nil
    }

    /// The session bus address, or nil when there is none to use.
    static func sessionBusAddress() -> String? {
        if let value = getenv("DBUS_SESSION_BUS_ADDRESS").map({ String(cString: $0) }), !value.isEmpty {
            // (Not `String.contains`: the substring search comes from _StringProcessing, 2 MB in the static binary.)
            return value.split(separator: ";").contains { $0.hasPrefix("autolaunch:") } ? nil : value
        }
        guard let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), runtime.hasPrefix("/") else { return nil }
        var st = stat()
        guard stat(runtime + "/bus", &st) == 0, (st.st_mode & S_IFMT) == S_IFSOCK else { return nil }
        return "unix:path=" + runtime + "/bus"
    }

    private init(lib: LibDBus, connection: OpaquePointer) {
        self.lib = lib
        self.connection = connection
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
        lib.addMatch(c, Self.changeRule, nil)
        lib.addMatch(c, Self.ownerRule, nil)
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
    func pollEntries() -> [pollfd] {
        polled = connection == nil ? [] : watches.list.filter { lib.watchEnabled($0) != 0 }
        return polled.map { watch in
            let flags = lib.watchFlags(watch)
            var events: Int16 = 0
            if flags & Self.readable != 0 { events |= Int16(POLLIN) }
            if flags & Self.writable != 0 { events |= Int16(POLLOUT) }
            return pollfd(fd: lib.watchFD(watch), events: events, revents: 0)
        }
    }

    /// Lets libdbus read and write what `ready` (the polled `pollEntries()`, in order) allows, then sorts what arrived.
    func service(_ ready: ArraySlice<pollfd>) -> Event? {
        guard let c = connection else { return .lost }
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
        while let message = lib.popMessage(c) {
            defer { lib.messageUnref(message) }
            switch lib.messageType(message) {
            case 4 where lib.isSignal(message, "org.freedesktop.DBus.Local", "Disconnected") != 0:
                event = .lost
            case 4 where lib.isSignal(message, "org.freedesktop.DBus.Properties", "PropertiesChanged") != 0,
                 4 where lib.isSignal(message, "org.freedesktop.DBus", "NameOwnerChanged") != 0:
                if event == nil { event = .changed }
            case 2 where lib.replySerial(message) == readySerial:  // METHOD_RETURN to the Ping
                if event == nil { event = .changed }
            case 3:  // ERROR: a rule refused (too many match rules) or Hello failed
                let name = lib.errorName(message).map { String(cString: $0) } ?? "an error"
                FeedOutput.warn("the session bus refused the feed's subscription (\(name)); refreshing on the timer")
                event = .lost
            default:
                break
            }
        }
        if event != .lost, lib.isConnected(c) == 0 { event = .lost }
        if event == .lost { drop() }
        return event
    }

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

/// The few libdbus-1 functions the watch uses, looked up in the library opened at run time.
private struct LibDBus {
    typealias Connection = OpaquePointer
    typealias Message = OpaquePointer
    typealias Watch = OpaquePointer
    typealias Bool32 = UInt32
    typealias AddWatch = @convention(c) (Watch?, UnsafeMutableRawPointer?) -> Bool32
    typealias RemoveWatch = @convention(c) (Watch?, UnsafeMutableRawPointer?) -> Void

    let openPrivate: @convention(c) (UnsafePointer<CChar>, UnsafeMutableRawPointer?) -> Connection?
    let setExitOnDisconnect: @convention(c) (Connection, Bool32) -> Void
    let close: @convention(c) (Connection) -> Void
    let unref: @convention(c) (Connection) -> Void
    let isConnected: @convention(c) (Connection) -> Bool32
    let setWatchFunctions: @convention(c) (Connection, AddWatch?, RemoveWatch?, RemoveWatch?, UnsafeMutableRawPointer?,
                                           UnsafeMutableRawPointer?) -> Bool32
    let watchFD: @convention(c) (Watch) -> Int32
    let watchFlags: @convention(c) (Watch) -> UInt32
    let watchEnabled: @convention(c) (Watch) -> Bool32
    let watchHandle: @convention(c) (Watch, UInt32) -> Bool32
    let popMessage: @convention(c) (Connection) -> Message?
    let send: @convention(c) (Connection, Message, UnsafeMutablePointer<UInt32>?) -> Bool32
    let addMatch: @convention(c) (Connection, UnsafePointer<CChar>, UnsafeMutableRawPointer?) -> Void
    let newMethodCall: @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafePointer<CChar>,
                                       UnsafePointer<CChar>) -> Message?
    let setAutoStart: @convention(c) (Message, Bool32) -> Void
    let messageUnref: @convention(c) (Message) -> Void
    let messageType: @convention(c) (Message) -> Int32
    let isSignal: @convention(c) (Message, UnsafePointer<CChar>, UnsafePointer<CChar>) -> Bool32
    let replySerial: @convention(c) (Message) -> UInt32
    let errorName: @convention(c) (Message) -> UnsafePointer<CChar>?

    /// libdbus, opened on first use; nil when it is not installed.
    static let shared: LibDBus? = {
        guard let handle = dlopen("libdbus-1.so.3", RTLD_NOW | RTLD_LOCAL) else { return nil }
        func f<T>(_ name: String) throws(Missing) -> T {
            guard let symbol = dlsym(handle, name) else { throw Missing() }
            return unsafeBitCast(symbol, to: T.self)
        }
        return try? LibDBus(
            openPrivate: f("dbus_connection_open_private"), setExitOnDisconnect: f("dbus_connection_set_exit_on_disconnect"),
            close: f("dbus_connection_close"), unref: f("dbus_connection_unref"),
            isConnected: f("dbus_connection_get_is_connected"), setWatchFunctions: f("dbus_connection_set_watch_functions"),
            watchFD: f("dbus_watch_get_unix_fd"), watchFlags: f("dbus_watch_get_flags"), watchEnabled: f("dbus_watch_get_enabled"),
            watchHandle: f("dbus_watch_handle"), popMessage: f("dbus_connection_pop_message"),
            send: f("dbus_connection_send"), addMatch: f("dbus_bus_add_match"), newMethodCall: f("dbus_message_new_method_call"),
            setAutoStart: f("dbus_message_set_auto_start"), messageUnref: f("dbus_message_unref"),
            messageType: f("dbus_message_get_type"), isSignal: f("dbus_message_is_signal"),
            replySerial: f("dbus_message_get_reply_serial"), errorName: f("dbus_message_get_error_name"))
    }()

    struct Missing: Error {}
}
