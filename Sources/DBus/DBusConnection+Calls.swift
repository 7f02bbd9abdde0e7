import Synchronization

extension DBusConnection {
    /// The timeout D-Bus tools use by default.
    public static let defaultTimeout: Duration = .seconds(25)

    /// Calls a method and blocks the calling thread until its reply.
    ///
    /// Throws the peer's error reply as a `DBusError`, `NoReply` (`isTimeout`) if no answer comes
    /// within `timeout`, or `Disconnected` if the connection ends first.
    public func call(destination: String, path: DBusObjectPath, interface: String, method: String,
                     arguments: [DBusValue] = [], timeout: Duration = DBusConnection.defaultTimeout) throws -> [DBusValue] {
        let message = try makeCall(destination, path, interface, method, arguments)
        let label = "\(interface).\(method) on \(destination)"
        return try core.callBlocking(message, timeout: timeout, label: label).readArguments()
    }

    /// Calls a method and suspends until its reply; cancelling the task abandons the call.
    ///
    /// Throws like the blocking `call`, or `CancellationError` if the task is cancelled.
    public func call(destination: String, path: DBusObjectPath, interface: String, method: String,
                     arguments: [DBusValue] = [], timeout: Duration = DBusConnection.defaultTimeout) async throws -> [DBusValue] {
        let message = try makeCall(destination, path, interface, method, arguments)
        let label = "\(interface).\(method) on \(destination)"
        let tracker = AsyncCallTracker()
        let core = self.core
        let reply: Message = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Message, any Error>) in
                let sent = core.sendCall(message, timeout: timeout, label: label) { result in
                    switch result {
                    case .success(let reply): continuation.resume(returning: reply)
                    case .failure(let error):
                        continuation.resume(throwing: tracker.isCancelled ? CancellationError() : error)
                    }
                }
                if let sent { tracker.sent(sent, on: core) }
            }
        } onCancel: {
            tracker.cancel(on: core)
        }
        return try reply.readArguments()
    }

    /// Calls a method without waiting for, or asking for, a reply.
    public func send(destination: String, path: DBusObjectPath, interface: String, method: String,
                     arguments: [DBusValue] = []) throws {
        let message = try makeCall(destination, path, interface, method, arguments)
        message.setNoReply()
        try core.send(message)
    }

    private func makeCall(_ destination: String, _ path: DBusObjectPath, _ interface: String, _ method: String,
                          _ arguments: [DBusValue]) throws -> Message {
        let message = try Message.methodCall(destination: destination, path: path, interface: interface, member: method)
        try message.append(arguments)
        return message
    }
}

/// The serial and cancellation state of one async call, shared with its cancellation handler.
private final class AsyncCallTracker: Sendable {
    private let state = Mutex<(serial: UInt32?, cancelled: Bool)>((nil, false))

    var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Records the call's serial; if the task was cancelled before it was sent, abandons it now.
    func sent(_ serial: UInt32, on core: ConnectionCore) {
        let cancelledAlready = state.withLock { s -> Bool in
            s.serial = serial
            return s.cancelled
        }
        if cancelledAlready { core.cancelCall(serial: serial, with: .failed("cancelled")) }
    }

    /// Marks the call cancelled and abandons it if it was sent.
    func cancel(on core: ConnectionCore) {
        let serial = state.withLock { s -> UInt32? in
            s.cancelled = true
            return s.serial
        }
        if let serial { core.cancelCall(serial: serial, with: .failed("cancelled")) }
    }
}
