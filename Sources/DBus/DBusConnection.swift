import CDBus
import Glibc

/// A connection to a D-Bus message bus, served by its own thread.
///
/// One dedicated thread reads, writes and dispatches; handlers and signal callbacks run on it.
/// Any thread may send, call or emit. The connection never exits the process when the bus
/// goes away: it reports the loss through `onDisconnect` and `waitUntilClosed()`.
/// Call `close()` when done; handlers that capture the connection keep it alive until then.
public final class DBusConnection: Sendable {
    /// The well-known buses.
    public enum Bus: Sendable {
        /// The user's session bus, from `DBUS_SESSION_BUS_ADDRESS` (or libdbus's default).
        case session
        /// The system bus, from `DBUS_SYSTEM_BUS_ADDRESS` (or libdbus's default).
        case system
    }

    let core: ConnectionCore

    /// Connects to the session or system bus.
    ///
    /// The address variable is read on every call, so a process can move between buses
    /// (as tests with a private bus do).
    public convenience init(bus: Bus = .session) throws {
        DBusConnection.initThreads()
        let variable = bus == .session ? "DBUS_SESSION_BUS_ADDRESS" : "DBUS_SYSTEM_BUS_ADDRESS"
        if let address = getenv(variable).map({ String(cString: $0) }), !address.isEmpty {
            try self.init(address: address, busLabel: bus == .session ? "session bus" : "system bus")
            return
        }
        let error = LibDBusError()
        guard let raw = dbus_bus_get_private(bus == .session ? DBUS_BUS_SESSION : DBUS_BUS_SYSTEM, error.pointer) else {
            let reason = error.error?.message ?? "no reason given"
            throw DBusError(name: error.error?.name ?? DBusError.Name.failed,
                            message: "could not connect to the \(bus == .session ? "session" : "system") bus: \(reason); is \(variable) set?")
        }
        dbus_connection_set_exit_on_disconnect(raw, 0)
        try self.init(core: ConnectionCore(raw: raw))
    }

    /// Connects to the bus at a D-Bus address such as `unix:path=/run/user/1000/bus` and registers with it.
    public convenience init(address: String) throws {
        try self.init(address: address, busLabel: "bus")
    }

    private convenience init(address: String, busLabel: String) throws {
        DBusConnection.initThreads()
        guard !address.utf8.contains(0) else {
            throw DBusError(name: DBusError.Name.badAddress, message: "the bus address contains a NUL byte")
        }
        let error = LibDBusError()
        guard let raw = dbus_connection_open_private(address, error.pointer) else {
            let reason = error.error?.message ?? "no reason given"
            throw DBusError(name: error.error?.name ?? DBusError.Name.badAddress,
                            message: "could not connect to the \(busLabel) at \(address): \(reason)")
        }
        dbus_connection_set_exit_on_disconnect(raw, 0)
        guard dbus_bus_register(raw, error.pointer) != 0 else {
            dbus_connection_close(raw)
            dbus_connection_unref(raw)
            let reason = error.error?.message ?? "no reason given"
            throw DBusError(name: error.error?.name ?? DBusError.Name.failed,
                            message: "connected to \(address) but could not register with the \(busLabel): \(reason)")
        }
        try self.init(core: ConnectionCore(raw: raw))
    }

    private init(core: ConnectionCore) {
        self.core = core
    }

    deinit {
        core.close()
    }

    private static func initThreads() {
        // Idempotent and thread-safe in libdbus >= 1.7.
        _ = dbus_threads_init_default()
    }

    /// This connection's unique name on the bus, such as `:1.7`.
    public var uniqueName: String { core.uniqueName }

    /// Whether the connection is up: not closed, and the bus is still there.
    public var isConnected: Bool { core.isConnected }

    /// Stops the bus thread, flushes queued messages and closes the connection.
    ///
    /// Pending calls fail with `Disconnected`. Safe to call more than once and from a handler.
    public func close() {
        core.close()
    }

    /// Runs `handler` once, on the bus thread, if the bus connection is lost (not on `close()`).
    ///
    /// If it was already lost, the handler runs at once.
    public func onDisconnect(_ handler: @escaping @Sendable () -> Void) {
        core.onDisconnect(handler)
    }

    /// Suspends until the connection ends, by `close()` or because the bus went away.
    public func waitUntilClosed() async {
        await core.waitUntilClosed()
    }
}
