import Dispatch
import Synchronization

/// One signal handler and the rule that feeds it.
struct Subscription: Sendable {
    let rule: DBusMatchRule
    let handler: @Sendable (DBusSignalEvent) -> Void
}

extension ConnectionCore {
    static let busName = "org.freedesktop.DBus"

    /// Hands a signal to every subscription whose rule matches, on the bus thread.
    func deliverSignal(_ message: Message) {
        let sender = message.sender ?? ""
        let path = message.path ?? "/"
        let interface = message.interface ?? ""
        let member = message.member ?? ""
        var arguments: [DBusValue]?

        if sender == Self.busName, interface == Self.busName, member == "NameOwnerChanged" {
            arguments = try? message.readArguments()
            if let args = arguments, args.count == 3, let name = args[0].stringValue, let owner = args[2].stringValue {
                state.withLock { s in
                    if s.ownerWatchCount[name] != nil { s.owners[name] = owner.isEmpty ? nil : owner }
                }
            }
        }

        let (subscriptions, owners) = state.withLock { s in
            (s.subscriptions.sorted { $0.key < $1.key }.map(\.value), s.owners)
        }
        for subscription in subscriptions {
            guard subscription.rule.matches(sender: sender, path: path, interface: interface,
                                            member: member, owners: owners) else { continue }
            if arguments == nil {
                // A signal we cannot decode (too large) has no one to tell; it is dropped.
                guard let decoded = try? message.readArguments() else { return }
                arguments = decoded
            }
            guard subscription.rule.matches(arguments: arguments!) else { continue }
            subscription.handler(DBusSignalEvent(sender: sender, path: DBusObjectPath(unchecked: path),
                                                 interface: interface, member: member, arguments: arguments!))
        }
    }

    /// Calls a method of the bus daemon itself and blocks for the reply.
    func callBus(_ member: String, _ arguments: [DBusValue], timeout: Duration = .seconds(25)) throws -> [DBusValue] {
        let message = try Message.methodCall(destination: Self.busName, path: "/org/freedesktop/DBus",
                                             interface: Self.busName, member: member)
        try message.append(arguments)
        return try callBlocking(message, timeout: timeout, label: "\(Self.busName).\(member)").readArguments()
    }

    /// Starts tracking the owner of a well-known name, so rules naming it match its owner's signals.
    func watchOwner(of name: String) throws {
        let first = state.withLock { s -> Bool in
            s.ownerWatchCount[name, default: 0] += 1
            return s.ownerWatchCount[name] == 1
        }
        guard first else { return }
        do {
            _ = try callBus("AddMatch", [.string(DBusMatchRule.nameOwnerChanged(name).ruleString)])
            // The owner is recorded on the bus thread, in order with NameOwnerChanged signals.
            let message = try Message.methodCall(destination: Self.busName, path: "/org/freedesktop/DBus",
                                                 interface: Self.busName, member: "GetNameOwner")
            try message.append([.string(name)])
            if isOnBusThread {
                let owner = try? callBlocking(message, timeout: .seconds(25), label: "GetNameOwner").readArguments()
                state.withLock { $0.owners[name] = owner?.first?.stringValue }
            } else {
                let done = DispatchSemaphore(value: 0)
                _ = sendCall(message, timeout: .seconds(25), label: "GetNameOwner") { [self] result in
                    let owner = (try? result.get().readArguments())?.first?.stringValue
                    state.withLock { $0.owners[name] = owner }
                    done.signal()
                }
                done.wait()
            }
        } catch {
            unwatchOwner(of: name)
            throw error
        }
    }

    /// Stops tracking a name's owner once no rule needs it.
    func unwatchOwner(of name: String) {
        let last = state.withLock { s -> Bool in
            guard let count = s.ownerWatchCount[name] else { return false }
            if count > 1 { s.ownerWatchCount[name] = count - 1; return false }
            s.ownerWatchCount[name] = nil
            s.owners[name] = nil
            return true
        }
        if last { removeMatchQuietly(DBusMatchRule.nameOwnerChanged(name).ruleString) }
    }

    /// Sends RemoveMatch without waiting for the answer.
    func removeMatchQuietly(_ rule: String) {
        guard let message = try? Message.methodCall(destination: Self.busName, path: "/org/freedesktop/DBus",
                                                    interface: Self.busName, member: "RemoveMatch"),
              (try? message.append([.string(rule)])) != nil else { return }
        _ = sendCall(message, timeout: .seconds(25), label: "RemoveMatch") { _ in }
    }

    /// Whether a rule's sender needs owner tracking (a well-known name other than the bus).
    static func needsOwnerTracking(_ sender: String?) -> String? {
        guard let sender, !sender.hasPrefix(":"), sender != busName else { return nil }
        return sender
    }
}
