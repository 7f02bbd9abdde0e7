import CDBus
import Dispatch
import Glibc
import Synchronization

/// The state behind a `DBusConnection`: the libdbus connection, its bus thread and tables.
///
/// Thread safety: libdbus is made thread-safe with `dbus_threads_init_default()`; every
/// Swift-side table lives in `state`, a `Mutex`. Only the bus thread reads from the socket
/// and dispatches; any thread may send. The raw connection is used from other threads only
/// while holding `state` with `phase != .closed`, so it cannot be freed under them.
final class ConnectionCore: @unchecked Sendable {
    /// A call waiting for its reply.
    struct PendingCall {
        let deadline: ContinuousClock.Instant
        let timeout: Duration
        let label: String
        let complete: @Sendable (Result<Message, DBusError>) -> Void
    }

    enum Phase { case running, stopping, closed }

    struct State {
        var phase = Phase.running
        var lost = false
        var pending: [UInt32: PendingCall] = [:]
        var objects: [DBusObjectPath: ExportedObject] = [:]
        var subscriptions: [UInt64: Subscription] = [:]
        var nextToken: UInt64 = 1
        /// Current owners of the well-known names that some match rule filters on.
        var owners: [String: String] = [:]
        var ownerWatchCount: [String: Int] = [:]
        var disconnectHandlers: [@Sendable () -> Void] = []
        var closeWaiters: [CheckedContinuation<Void, Never>] = []
        var closeHandlers: [UInt64: @Sendable () -> Void] = [:]
    }

    /// The `DBusConnection *`; freed by the bus thread when it finishes.
    let raw: OpaquePointer
    /// Our unique name on the bus, such as `:1.7`.
    let uniqueName: String
    let state = Mutex(State())
    /// A pipe the bus thread polls (read end) so other threads can wake it (write end).
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let loopThread = Atomic<UInt>(0)
    private let finished = DispatchGroup()

    /// Wraps a registered connection and starts its bus thread.
    init(raw: OpaquePointer) throws {
        self.raw = raw
        self.uniqueName = dbus_bus_get_unique_name(raw).map { String(cString: $0) } ?? ""
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            dbus_connection_close(raw)
            dbus_connection_unref(raw)
            throw DBusError.failed("could not create a wake-up pipe for the bus thread (errno \(errno))")
        }
        for fd in ends {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        self.wakeRead = ends[0]
        self.wakeWrite = ends[1]
        let me = Unmanaged.passUnretained(self).toOpaque()
        guard dbus_connection_add_filter(raw, coreFilter, me, nil) != 0 else {
            Glibc.close(ends[0])
            Glibc.close(ends[1])
            dbus_connection_close(raw)
            dbus_connection_unref(raw)
            throw DBusError.outOfMemory
        }
        dbus_connection_set_wakeup_main_function(raw, coreWakeup, me, nil)
        dbus_connection_set_dispatch_status_function(raw, coreDispatchStatus, me, nil)
        try startThread()
    }

    deinit {
        Glibc.close(wakeRead)
        Glibc.close(wakeWrite)
    }

    // MARK: Thread

    private func startThread() throws {
        finished.enter()
        let box = Unmanaged.passRetained(self)
        var thread = pthread_t()
        let rc = pthread_create(&thread, nil, { argument in
            let core = Unmanaged<ConnectionCore>.fromOpaque(argument!).takeRetainedValue()
            core.run()
            return nil
        }, box.toOpaque())
        guard rc == 0 else {
            box.release()
            finish(lost: false)
            throw DBusError.failed("could not start the D-Bus thread (error \(rc))")
        }
        pthread_detach(thread)
    }

    /// Whether the caller is running on the bus thread.
    var isOnBusThread: Bool { loopThread.load(ordering: .acquiring) == UInt(pthread_self()) }

    /// Wakes the bus thread so it re-reads its state and polls again.
    func wake() {
        // A full pipe already means "wake up"; the write then fails with EAGAIN, harmlessly.
        var byte: UInt8 = 1
        _ = Glibc.write(wakeWrite, &byte, 1)
    }

    private func drainWake() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while Glibc.read(wakeRead, &buffer, buffer.count) > 0 {}
    }

    /// The bus thread: dispatch, expire timeouts, poll the socket and the wake fd, read and write.
    private func run() {
        loopThread.store(UInt(pthread_self()), ordering: .releasing)
        var lost = false
        while true {
            while dbus_connection_dispatch(raw) == DBUS_DISPATCH_DATA_REMAINS {}

            let now = ContinuousClock.now
            let (stop, wasLost, expired, nextDeadline) = state.withLock { s in
                var expired: [PendingCall] = []
                var next: ContinuousClock.Instant? = nil
                for (serial, call) in s.pending {
                    if call.deadline <= now {
                        expired.append(call)
                        s.pending[serial] = nil
                    } else if next == nil || call.deadline < next! {
                        next = call.deadline
                    }
                }
                return (s.phase != .running, s.lost, expired, next)
            }
            for call in expired {
                call.complete(.failure(DBusError(
                    name: DBusError.Name.noReply,
                    message: "no reply to \(call.label) within \(call.timeout.secondsText); the peer may be busy or gone")))
            }
            if stop { break }
            if wasLost || dbus_connection_get_is_connected(raw) == 0 {
                // Let libdbus queue and deliver its Disconnected message before giving up.
                if dbus_connection_get_dispatch_status(raw) == DBUS_DISPATCH_DATA_REMAINS { continue }
                lost = true
                break
            }

            var socket: Int32 = -1
            _ = dbus_connection_get_socket(raw, &socket)
            var events = Int16(POLLIN)
            if dbus_connection_has_messages_to_send(raw) != 0 { events |= Int16(POLLOUT) }
            var fds = [pollfd(fd: socket, events: socket >= 0 ? events : 0, revents: 0),
                       pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            var timeoutMs: Int32 = -1
            if let nextDeadline {
                let ms = now.duration(to: nextDeadline).milliseconds.rounded(.up)
                timeoutMs = Int32(max(0, min(ms, Double(Int32.max))))
            }
            let ready = poll(&fds, 2, timeoutMs)
            if ready < 0, errno != EINTR { continue }
            if fds[1].revents != 0 { drainWake() }
            if fds[0].revents != 0 || dbus_connection_has_messages_to_send(raw) != 0 {
                _ = dbus_connection_read_write(raw, 0)
            }
        }
        finish(lost: lost)
    }

    /// Stops serving: fails pending calls, frees the connection, tells waiters and handlers.
    private func finish(lost: Bool) {
        // The exported objects and subscriptions are let go of outside the lock: their last reference may be the
        // one held here, and a deinit that cancels a subscription of its own (a notification server) takes the lock.
        let (pending, handlers, waiters, closeHandlers, released) = state.withLock { s in
            s.phase = .closed
            s.lost = s.lost || lost
            let result = (Array(s.pending.values), s.disconnectHandlers, s.closeWaiters,
                          s.closeHandlers.sorted { $0.key < $1.key }.map(\.value), (s.objects, s.subscriptions))
            s.closeHandlers = [:]
            s.pending = [:]
            s.objects = [:]
            s.subscriptions = [:]
            s.disconnectHandlers = []
            s.closeWaiters = []
            return result
        }
        defer { withExtendedLifetime(released) {} }
        if !lost, dbus_connection_get_is_connected(raw) != 0 {
            dbus_connection_flush(raw)
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_remove_filter(raw, coreFilter, me)
        dbus_connection_set_wakeup_main_function(raw, nil, nil, nil)
        dbus_connection_set_dispatch_status_function(raw, nil, nil, nil)
        dbus_connection_close(raw)
        dbus_connection_unref(raw)

        let error = lost ? DBusError(name: DBusError.Name.disconnected,
                                     message: "the bus connection was lost before a reply arrived")
                         : DBusError.disconnected
        for call in pending { call.complete(.failure(error)) }
        if lost { for handler in handlers { handler() } }
        for handler in closeHandlers { handler() }
        for waiter in waiters { waiter.resume() }
        finished.leave()
    }

    /// Asks the bus thread to stop and, unless called from it, waits until it has.
    func close() {
        state.withLock { s in
            if s.phase == .running { s.phase = .stopping }
        }
        wake()
        if !isOnBusThread { finished.wait() }
    }

    /// Whether the connection is still up and serving.
    var isConnected: Bool {
        state.withLock { s in s.phase == .running && !s.lost && dbus_connection_get_is_connected(raw) != 0 }
    }

    /// Runs `body` with the live raw connection and the state, or throws if it is closed.
    func withLiveConnection<T>(_ body: (OpaquePointer, inout State) throws -> T) throws -> T {
        try state.withLock { s in
            guard s.phase != .closed, !s.lost, dbus_connection_get_is_connected(raw) != 0 else {
                throw DBusError.disconnected
            }
            return try body(raw, &s)
        }
    }

    // MARK: Dispatch

    /// Handles one incoming message on the bus thread.
    fileprivate func filter(_ message: Message) -> DBusHandlerResult {
        switch message.type {
        case DBUS_MESSAGE_TYPE_METHOD_RETURN, DBUS_MESSAGE_TYPE_ERROR:
            let serial = message.replySerial
            let call = state.withLock { $0.pending.removeValue(forKey: serial) }
            if let call {
                call.complete(message.type == DBUS_MESSAGE_TYPE_ERROR ? .failure(message.carriedError) : .success(message))
            }
            return DBUS_HANDLER_RESULT_HANDLED
        case DBUS_MESSAGE_TYPE_SIGNAL:
            if message.interface == "org.freedesktop.DBus.Local", message.member == "Disconnected" {
                state.withLock { $0.lost = true }
                return DBUS_HANDLER_RESULT_HANDLED
            }
            deliverSignal(message)
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        case DBUS_MESSAGE_TYPE_METHOD_CALL:
            dispatchMethodCall(message)
            return DBUS_HANDLER_RESULT_HANDLED
        default:
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
    }

    /// Registers a handler to run when the bus connection is lost; runs it now if it already was.
    func onDisconnect(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { s -> Bool in
            if s.phase == .closed { return s.lost }
            s.disconnectHandlers.append(handler)
            return false
        }
        if runNow { handler() }
    }

    /// Runs `handler` when the connection ends for any reason; at once if it already has.
    /// Returns a token for `removeCloseHandler`, or nil if the handler already ran.
    @discardableResult
    func onClose(_ handler: @escaping @Sendable () -> Void) -> UInt64? {
        let token = state.withLock { s -> UInt64? in
            if s.phase == .closed { return nil }
            let token = s.nextToken
            s.nextToken += 1
            s.closeHandlers[token] = handler
            return token
        }
        if token == nil { handler() }
        return token
    }

    /// Forgets a handler registered with `onClose`.
    func removeCloseHandler(_ token: UInt64?) {
        guard let token else { return }
        state.withLock { _ = $0.closeHandlers.removeValue(forKey: token) }
    }

    /// Suspends until the connection is closed or lost.
    func waitUntilClosed() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let closed = state.withLock { s -> Bool in
                if s.phase == .closed { return true }
                s.closeWaiters.append(continuation)
                return false
            }
            if closed { continuation.resume() }
        }
    }
}

// libdbus callbacks. They receive the core unretained: it outlives the connection, which
// the bus thread frees (after clearing these) before it drops its own reference.

private let coreFilter: DBusHandleMessageFunction = { _, message, data in
    guard let message, let data else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
    let core = Unmanaged<ConnectionCore>.fromOpaque(data).takeUnretainedValue()
    return core.filter(Message(retaining: message))
}

/// Called by libdbus, possibly with its lock held, when a send could not be written at once.
private let coreWakeup: DBusWakeupMainFunction = { data in
    guard let data else { return }
    Unmanaged<ConnectionCore>.fromOpaque(data).takeUnretainedValue().wake()
}

/// Called by libdbus when messages wait to be dispatched.
private let coreDispatchStatus: DBusDispatchStatusFunction = { _, status, data in
    guard let data, status == DBUS_DISPATCH_DATA_REMAINS else { return }
    Unmanaged<ConnectionCore>.fromOpaque(data).takeUnretainedValue().wake()
}
