#if canImport(Glibc)
import Glibc
#endif

/// The few libdbus-1 functions the watch uses, looked up in the library opened at run time.
struct LibDBus {
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
