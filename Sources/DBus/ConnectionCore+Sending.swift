import CDBus
import Dispatch
import Synchronization

/// Sending messages and calls from any thread, and waiting for replies.
extension ConnectionCore {
    /// Queues a message for sending from any thread.
    func send(_ message: Message) throws {
        try withLiveConnection { raw, _ in
            guard dbus_connection_send(raw, message.raw, nil) != 0 else { throw DBusError.outOfMemory }
        }
        wake()
    }

    /// Sends a call and arranges for `completion` to run on the bus thread with its reply,
    /// an error reply as `DBusError`, or a `NoReply` error after `timeout`.
    func sendCall(_ message: Message, timeout: Duration, label: String,
                  completion: @escaping @Sendable (Result<Message, DBusError>) -> Void) -> UInt32? {
        let timeout = timeout.clampedForCalls
        let deadline = ContinuousClock.now + timeout
        do {
            let serial: UInt32 = try withLiveConnection { raw, s in
                var serial: UInt32 = 0
                guard dbus_connection_send(raw, message.raw, &serial) != 0 else { throw DBusError.outOfMemory }
                s.pending[serial] = PendingCall(deadline: deadline, timeout: timeout, label: label, complete: completion)
                return serial
            }
            wake()
            return serial
        } catch {
            completion(.failure(DBusError(describing: error)))
            return nil
        }
    }

    /// Forgets a pending call and fails it with `error`, if it is still pending.
    func cancelCall(serial: UInt32, with error: DBusError) {
        let call = state.withLock { $0.pending.removeValue(forKey: serial) }
        call?.complete(.failure(error))
    }

    /// Sends a call and blocks the calling thread until the reply, an error, or the timeout.
    func callBlocking(_ message: Message, timeout: Duration, label: String) throws -> Message {
        if isOnBusThread {
            return try callBlockingOnBusThread(message, timeout: timeout, label: label)
        }
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<Result<Message, DBusError>?>(nil)
        _ = sendCall(message, timeout: timeout, label: label) { outcome in
            result.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        return try result.withLock { $0! }.get()
    }

    /// A blocking call made from a handler on the bus thread: libdbus does the I/O itself.
    private func callBlockingOnBusThread(_ message: Message, timeout: Duration, label: String) throws -> Message {
        let error = LibDBusError()
        let ms = Int32(max(1, timeout.clampedForCalls.milliseconds.rounded(.up)))
        guard let reply = dbus_connection_send_with_reply_and_block(raw, message.raw, ms, error.pointer) else {
            var failure = error.error ?? DBusError.disconnected
            if failure.name == DBusError.Name.noReply {
                failure.message = "no reply to \(label) within \(timeout.secondsText); the peer may be busy or gone"
            }
            throw failure
        }
        return Message(taking: reply)
    }

    /// Sends the reply (or error reply) to a method call, unless the caller asked for none.
    func reply(to call: Message, with result: Result<[DBusValue], DBusError>) {
        guard !call.noReplyExpected else { return }
        var message: Message?
        switch result {
        case .success(let values):
            do {
                let reply = try call.makeReturn()
                try reply.append(values)
                message = reply
            } catch {
                message = call.makeError(DBusError(describing: error))
            }
        case .failure(let error):
            message = call.makeError(error)
        }
        if let message { try? send(message) }
    }
}

extension Duration {
    /// The timeout limited to what libdbus accepts (0 to about 24 days), so deadlines cannot overflow.
    var clampedForCalls: Duration {
        if self < .zero { return .zero }
        let maximum = Duration.milliseconds(Int64(Int32.max - 1))
        return self > maximum ? maximum : self
    }

    /// The duration in milliseconds, as a Double.
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    /// The duration as text for error messages, such as `0.5 s`.
    var secondsText: String {
        let ms = milliseconds
        if ms < 1000 { return "\(Int(ms.rounded())) ms" }
        let tenths = (ms / 100).rounded() / 10
        return tenths == tenths.rounded() ? "\(Int(tenths)) s" : "\(tenths) s"
    }
}
