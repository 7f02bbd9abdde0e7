import CGtk

/// Signal handlers as Swift closures. Each closure is boxed, retained by the connection and released by GLib when
/// the handler goes (the object is finalized or the handler disconnected), so a closure lives exactly as long as its
/// connection. A C signal handler's user data is always its last argument, so each shape of signal has its own
/// trampoline.
public enum Signal {
    final class Box<F> {
        let fn: F
        init(_ fn: F) { self.fn = fn }
    }

    static let release: GClosureNotify = { data, _ in
        guard let data else { return }
        Unmanaged<AnyObject>.fromOpaque(data).release()
    }

    static func retain<F>(_ fn: F) -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(Box(fn) as AnyObject).toOpaque()
    }

    static func box<F>(_ data: UnsafeMutableRawPointer?) -> F {
        (Unmanaged<AnyObject>.fromOpaque(data!).takeUnretainedValue() as! Box<F>).fn
    }

    /// `instance` emits `signal(instance)`: clicked, activate, search-changed, toggled, changed, stop-search.
    @discardableResult
    public static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String, _ fn: @escaping () -> Void) -> UInt {
        let t: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
            (Signal.box(data) as () -> Void)()
        }
        return UInt(engram_signal_connect(instance, signal, unsafeBitCast(t, to: GCallback.self), retain(fn), release))
    }

    @discardableResult
    public static func connect<T>(_ instance: UnsafeMutablePointer<T>, _ signal: String, _ fn: @escaping () -> Void) -> UInt {
        connect(UnsafeMutableRawPointer(instance), signal, fn)
    }

    @discardableResult
    public static func connect(_ instance: OpaquePointer, _ signal: String, _ fn: @escaping () -> Void) -> UInt {
        connect(UnsafeMutableRawPointer(instance), signal, fn)
    }

    @discardableResult
    public static func connect1(_ instance: OpaquePointer, _ signal: String, _ fn: @escaping (UnsafeMutableRawPointer?) -> Void) -> UInt {
        connect1(UnsafeMutablePointer<UInt8>(instance), signal, fn)
    }

    /// `instance` emits `signal(instance, pointer)`: row-activated (the row), response (the id), notify (the
    /// property), activate on a GSimpleAction (the parameter).
    @discardableResult
    public static func connect1<T>(_ instance: UnsafeMutablePointer<T>, _ signal: String,
                                   _ fn: @escaping (UnsafeMutableRawPointer?) -> Void) -> UInt {
        let t: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, arg, data in
            (Signal.box(data) as (UnsafeMutableRawPointer?) -> Void)(arg)
        }
        return UInt(engram_signal_connect(instance, signal, unsafeBitCast(t, to: GCallback.self), retain(fn), release))
    }

    /// `instance` emits `signal(instance, pointer) -> gboolean`: activate-link (the URI); true stops GTK's default.
    @discardableResult
    public static func connectBool1<T>(_ instance: UnsafeMutablePointer<T>, _ signal: String,
                                       _ fn: @escaping (UnsafeMutableRawPointer?) -> Bool) -> UInt {
        let t: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean = { _, arg, data in
            (Signal.box(data) as (UnsafeMutableRawPointer?) -> Bool)(arg) ? 1 : 0
        }
        return UInt(engram_signal_connect(instance, signal, unsafeBitCast(t, to: GCallback.self), retain(fn), release))
    }

    /// A click gesture's `pressed(gesture, n_press, x, y)`.
    @discardableResult
    public static func connectPressed(_ gesture: OpaquePointer, _ fn: @escaping (Double, Double) -> Void) -> UInt {
        let t: @convention(c) (UnsafeMutableRawPointer?, Int32, Double, Double, UnsafeMutableRawPointer?) -> Void = { _, _, x, y, data in
            (Signal.box(data) as (Double, Double) -> Void)(x, y)
        }
        return UInt(engram_signal_connect(UnsafeMutableRawPointer(gesture), "pressed", unsafeBitCast(t, to: GCallback.self), retain(fn), release))
    }

    /// A key controller's `key-pressed(controller, keyval, keycode, state)`; answer true when handled.
    @discardableResult
    public static func connectKey(_ controller: OpaquePointer, _ fn: @escaping (UInt32) -> Bool) -> UInt {
        let t: @convention(c) (UnsafeMutableRawPointer?, UInt32, UInt32, UInt32, UnsafeMutableRawPointer?) -> gboolean = { _, key, _, _, data in
            (Signal.box(data) as (UInt32) -> Bool)(key) ? 1 : 0
        }
        return UInt(engram_signal_connect(UnsafeMutableRawPointer(controller), "key-pressed", unsafeBitCast(t, to: GCallback.self), retain(fn), release))
    }

    /// GApplication's `open(app, files, n_files, hint)`: the URIs asked for.
    @discardableResult
    public static func connectOpen<T>(_ app: UnsafeMutablePointer<T>, _ fn: @escaping ([String]) -> Void) -> UInt {
        let t: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<OpaquePointer?>?, Int32, UnsafePointer<CChar>?, UnsafeMutableRawPointer?) -> Void = { _, files, n, _, data in
            var uris: [String] = []
            for i in 0..<Int(max(n, 0)) {
                guard let file = files?[i], let uri = g_file_get_uri(file) else { continue }
                uris.append(String(cString: uri))
                g_free(uri)
            }
            (Signal.box(data) as ([String]) -> Void)(uris)
        }
        return UInt(engram_signal_connect(app, "open", unsafeBitCast(t, to: GCallback.self), retain(fn), release))
    }

    /// A window's `close-request`; answer true to keep it open.
    @discardableResult
    public static func connectCloseRequest<T>(_ window: UnsafeMutablePointer<T>, _ fn: @escaping () -> Bool) -> UInt {
        let t: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean = { _, data in
            (Signal.box(data) as () -> Bool)() ? 1 : 0
        }
        return UInt(engram_signal_connect(window, "close-request", unsafeBitCast(t, to: GCallback.self), retain(fn), release))
    }
}

/// Drawing areas drawn by a Swift closure with cairo.
public enum Draw {
    public typealias Fn = (OpaquePointer, Int32, Int32) -> Void

    /// Draws `area` with `fn(cairo, width, height)` whenever GTK asks.
    public static func set(_ area: UnsafeMutablePointer<GtkWidget>, _ fn: @escaping Fn) {
        let t: @convention(c) (UnsafeMutablePointer<GtkDrawingArea>?, OpaquePointer?, Int32, Int32, UnsafeMutableRawPointer?) -> Void = { _, cr, w, h, data in
            guard let cr else { return }
            (Signal.box(data) as Fn)(cr, w, h)
        }
        let destroy: GDestroyNotify = { data in
            guard let data else { return }
            Unmanaged<AnyObject>.fromOpaque(data).release()
        }
        gtk_drawing_area_set_draw_func(UnsafeMutableRawPointer(area).assumingMemoryBound(to: GtkDrawingArea.self), t, Signal.retain(fn), destroy)
    }
}

/// Signals from other programs on the session bus, through GLib's own D-Bus client (it runs on the same main
/// loop as the window, so a signal arrives as any other event does).
public enum BusSignal {
    public typealias Fn = (String, OpaquePointer?) -> Void

    /// Calls `fn(member, parameters)` for each signal matching `sender`, `interface`, `member` and `path`.
    @discardableResult
    public static func subscribe(_ connection: OpaquePointer, sender: String?, interface: String?, member: String?, path: String?,
                                 _ fn: @escaping Fn) -> UInt32 {
        let t: GDBusSignalCallback = { _, _, _, _, member, params, data in
            (Signal.box(data) as Fn)(member.map { String(cString: $0) } ?? "", params)
        }
        let destroy: GDestroyNotify = { data in
            guard let data else { return }
            Unmanaged<AnyObject>.fromOpaque(data).release()
        }
        return g_dbus_connection_signal_subscribe(connection, sender, interface, member, path, nil, G_DBUS_SIGNAL_FLAGS_NONE, t,
                                                  Signal.retain(fn), destroy)
    }
}

/// The GLib main loop: where GTK runs, and how work done elsewhere comes back to it.
public enum Main {
    /// Runs `fn` on the main loop soon (from any thread).
    public static func async(_ fn: @escaping () -> Void) {
        let t: @convention(c) (UnsafeMutableRawPointer?) -> gboolean = { data in
            (Signal.box(data) as () -> Void)()
            return 0  // G_SOURCE_REMOVE
        }
        let destroy: GDestroyNotify = { data in
            guard let data else { return }
            Unmanaged<AnyObject>.fromOpaque(data).release()
        }
        engram_idle(t, Signal.retain(fn), destroy)
    }

    /// Runs `fn` on the main loop every `ms` milliseconds while it answers true.
    @discardableResult
    public static func every(ms: UInt32, _ fn: @escaping () -> Bool) -> UInt32 {
        let t: @convention(c) (UnsafeMutableRawPointer?) -> gboolean = { data in
            (Signal.box(data) as () -> Bool)() ? 1 : 0
        }
        let destroy: GDestroyNotify = { data in
            guard let data else { return }
            Unmanaged<AnyObject>.fromOpaque(data).release()
        }
        return engram_timeout(ms, t, Signal.retain(fn), destroy)
    }
}

/// A string GLib owns, as Swift text (nil for NULL).
public func string(_ p: UnsafePointer<CChar>?) -> String? { p.map { String(cString: $0) } }
public func string(_ p: UnsafeMutableRawPointer?) -> String? { p.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } }
