extension DBusConnection {
    /// Subscribes `handler` to the signals matching `rule`; it runs on the bus thread.
    ///
    /// When this returns, the bus has accepted the rule, so a signal emitted afterwards is delivered.
    /// Keep the returned subscription to `cancel()` it; dropping it does not cancel.
    @discardableResult
    public func addMatch(_ rule: DBusMatchRule,
                         handler: @escaping @Sendable (DBusSignalEvent) -> Void) throws -> DBusSignalSubscription {
        try rule.validate()
        let trackedName = ConnectionCore.needsOwnerTracking(rule.sender)
        if let trackedName { try core.watchOwner(of: trackedName) }
        let token = try core.withLiveConnection { _, s in
            let token = s.nextToken
            s.nextToken += 1
            s.subscriptions[token] = Subscription(rule: rule, handler: handler)
            return token
        }
        do {
            _ = try core.callBus("AddMatch", [.string(rule.ruleString)])
        } catch {
            core.state.withLock { _ = $0.subscriptions.removeValue(forKey: token) }
            if let trackedName { core.unwatchOwner(of: trackedName) }
            throw error
        }
        return DBusSignalSubscription(core: core, token: token, rule: rule)
    }

    /// The signals matching `rule` as an async sequence; ending the iteration cancels the subscription.
    public func signals(matching rule: DBusMatchRule,
                        bufferingPolicy: AsyncStream<DBusSignalEvent>.Continuation.BufferingPolicy = .unbounded)
        throws -> AsyncStream<DBusSignalEvent> {
        let (stream, continuation) = AsyncStream<DBusSignalEvent>.makeStream(bufferingPolicy: bufferingPolicy)
        let subscription = try addMatch(rule) { continuation.yield($0) }
        let core = self.core
        let closeToken = core.onClose { continuation.finish() }
        continuation.onTermination = { _ in
            subscription.cancel()
            core.removeCloseHandler(closeToken)
        }
        return stream
    }

    /// Emits a signal from `path`; if an exported interface declares it, the arguments must match.
    public func emit(path: DBusObjectPath, interface: String, signal: String, arguments: [DBusValue] = [],
                     destination: String? = nil) throws {
        let declared = core.state.withLock { $0.objects[path]?.interface(named: interface)?.signal(named: signal) }
        if let declared {
            let found = DBusValue.signature(of: arguments)
            if found != declared.signature {
                throw DBusError.invalidArgs(
                    "signal \(interface).\(signal) is declared '\(declared.signature)' but was given '\(found)'")
            }
        }
        let message = try Message.signal(path: path, interface: interface, member: signal)
        if let destination {
            try DBusNames.validateBusName(destination)
            message.setDestination(destination)
        }
        try message.append(arguments)
        try core.send(message)
    }
}
