/// Flags for `requestName`.
public struct DBusNameFlags: OptionSet, Sendable {
    /// The raw `DBUS_NAME_FLAG_*` bits.
    public let rawValue: UInt32
    /// Creates flags from raw bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Let a later requester with `replaceExisting` take the name from us.
    public static let allowReplacement = DBusNameFlags(rawValue: 0x1)
    /// Take the name from its owner if that owner allows replacement.
    public static let replaceExisting = DBusNameFlags(rawValue: 0x2)
    /// Fail instead of waiting in the queue when the name is taken.
    public static let doNotQueue = DBusNameFlags(rawValue: 0x4)
}

/// What the bus did with a `requestName`.
public enum DBusNameRequestResult: Sendable, Equatable {
    /// We own the name now.
    case primaryOwner
    /// Someone else owns it; we wait in the queue.
    case inQueue
    /// Someone else owns it and we asked not to queue.
    case exists
    /// We already owned it.
    case alreadyOwner
}

/// What the bus did with a `releaseName`.
public enum DBusNameReleaseResult: Sendable, Equatable {
    /// We no longer own or queue for the name.
    case released
    /// Nobody owned the name.
    case nonExistent
    /// Someone else owns the name.
    case notOwner
}

extension DBusConnection {
    /// Asks the bus for a well-known name; by default without queueing, so a second owner gets `.exists`.
    public func requestName(_ name: String, flags: DBusNameFlags = .doNotQueue) throws -> DBusNameRequestResult {
        try DBusNames.validateBusName(name)
        guard !name.hasPrefix(":") else { throw DBusError.invalidArgs("'\(name)' is a unique name and cannot be requested") }
        let reply = try core.callBus("RequestName", [.string(name), .uint32(flags.rawValue)])
        switch reply.first?.uint32Value {
        case 1: return .primaryOwner
        case 2: return .inQueue
        case 3: return .exists
        case 4: return .alreadyOwner
        default: throw DBusError.failed("the bus answered RequestName with \(reply)")
        }
    }

    /// Gives up a well-known name (or our place in its queue).
    @discardableResult
    public func releaseName(_ name: String) throws -> DBusNameReleaseResult {
        try DBusNames.validateBusName(name)
        let reply = try core.callBus("ReleaseName", [.string(name)])
        switch reply.first?.uint32Value {
        case 1: return .released
        case 2: return .nonExistent
        case 3: return .notOwner
        default: throw DBusError.failed("the bus answered ReleaseName with \(reply)")
        }
    }

    /// The unique name that currently owns `name`, or nil if nobody does.
    public func nameOwner(_ name: String) throws -> String? {
        try DBusNames.validateBusName(name)
        do {
            return try core.callBus("GetNameOwner", [.string(name)]).first?.stringValue
        } catch let error as DBusError where error.name == DBusError.Name.nameHasNoOwner {
            return nil
        }
    }
}
