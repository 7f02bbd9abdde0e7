import Synchronization

/// The handle a method handler uses to answer a call later, from any thread, exactly once.
///
/// If the handle is dropped without an answer, the caller gets a `Failed` error rather than
/// waiting for its timeout.
public final class DBusDeferredReply: Sendable {
    private let core: ConnectionCore
    private let call: Message
    private let member: String
    private let outSignature: DBusSignature
    private let answered = Atomic<Bool>(false)

    init(core: ConnectionCore, call: Message, member: String, outSignature: DBusSignature) {
        self.core = core
        self.call = call
        self.member = member
        self.outSignature = outSignature
    }

    deinit {
        if !answered.load(ordering: .acquiring) {
            send(.failure(DBusError.failed("\(member) finished without sending a reply")))
        }
    }

    /// Whether the call has been answered.
    public var isAnswered: Bool { answered.load(ordering: .acquiring) }

    /// Answers with the reply values, which must match the method's output signature.
    ///
    /// Values of the wrong type are not sent; the caller gets a `Failed` error naming both signatures.
    public func succeed(_ values: [DBusValue]) {
        guard claim() else { return }
        let found = DBusValue.signature(of: values)
        if found != outSignature {
            send(.failure(DBusError.failed(
                "\(member) produced a reply of type '\(found)' but declares '\(outSignature)'")))
            return
        }
        send(.success(values))
    }

    /// Answers with an error: a `DBusError` keeps its name, any other error becomes `Failed`.
    public func fail(_ error: any Error) {
        guard claim() else { return }
        send(.failure(DBusError(describing: error)))
    }

    private func claim() -> Bool {
        !answered.exchange(true, ordering: .acquiringAndReleasing)
    }

    private func send(_ result: Result<[DBusValue], DBusError>) {
        core.reply(to: call, with: result)
    }
}

extension DBusError {
    /// Any error as a `DBusError`: a `DBusError` as it is, anything else as `Failed` with its description.
    init(describing error: any Error) {
        if let error = error as? DBusError {
            self = error
        } else if error is CancellationError {
            self = .failed("the operation was cancelled")
        } else {
            self = .failed(String(describing: error))
        }
    }
}
