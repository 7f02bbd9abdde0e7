import Synchronization

/// A live signal subscription; `cancel()` removes its handler and its rule from the bus.
public final class DBusSignalSubscription: Sendable {
    private let core: ConnectionCore
    private let token: UInt64
    private let rule: DBusMatchRule
    private let cancelled = Atomic<Bool>(false)

    init(core: ConnectionCore, token: UInt64, rule: DBusMatchRule) {
        self.core = core
        self.token = token
        self.rule = rule
    }

    /// Stops delivery to the handler and removes the match rule; safe to call more than once.
    public func cancel() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        core.state.withLock { _ = $0.subscriptions.removeValue(forKey: token) }
        core.removeMatchQuietly(rule.ruleString)
        if let name = ConnectionCore.needsOwnerTracking(rule.sender) { core.unwatchOwner(of: name) }
    }
}
