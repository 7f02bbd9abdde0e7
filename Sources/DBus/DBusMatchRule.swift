/// Which signals a subscription receives: every field that is set must match.
///
/// The rule is sent to the bus (`AddMatch`) so only matching signals are routed to us, and
/// checked again locally so each handler sees only its own signals.
public struct DBusMatchRule: Sendable, Hashable {
    /// The sender: a well-known name (tracked to its current owner) or a unique name.
    public var sender: String?
    /// The exact object path.
    public var path: DBusObjectPath?
    /// A path and everything below it.
    public var pathNamespace: DBusObjectPath?
    /// The interface.
    public var interface: String?
    /// The signal name.
    public var member: String?
    /// String arguments that must be equal, by index (`arg0='org.engram.Engram'`).
    public var arguments: [Int: String]

    /// Creates a rule for signals; leave a field nil to accept any value.
    public init(sender: String? = nil, path: DBusObjectPath? = nil, pathNamespace: DBusObjectPath? = nil,
                interface: String? = nil, member: String? = nil, arguments: [Int: String] = [:]) {
        self.sender = sender
        self.path = path
        self.pathNamespace = pathNamespace
        self.interface = interface
        self.member = member
        self.arguments = arguments
    }

    /// The bus's `NameOwnerChanged(name, old_owner, new_owner)`, optionally for one name only.
    public static func nameOwnerChanged(_ name: String? = nil) -> DBusMatchRule {
        DBusMatchRule(sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                      member: "NameOwnerChanged", arguments: name.map { [0: $0] } ?? [:])
    }

    /// The rule in the bus's match-rule syntax, e.g. `type='signal',interface='…',member='…'`.
    public var ruleString: String {
        var parts = ["type='signal'"]
        func add(_ key: String, _ value: String?) {
            if let value { parts.append("\(key)=\(Self.quote(value))") }
        }
        add("sender", sender)
        add("path", path?.rawValue)
        add("path_namespace", pathNamespace?.rawValue)
        add("interface", interface)
        add("member", member)
        for (index, value) in arguments.sorted(by: { $0.key < $1.key }) { add("arg\(index)", value) }
        return parts.joined(separator: ",")
    }

    /// Quotes a match-rule value; an apostrophe is written as `'\''`.
    static func quote(_ value: String) -> String {
        "'" + value.replacingAll("'", with: "'\\''") + "'"
    }

    /// Throws `InvalidArgs` if a field could not be part of a valid rule.
    func validate() throws {
        if let sender { try DBusNames.validateBusName(sender) }
        try path?.validate()
        try pathNamespace?.validate()
        if let interface { try DBusNames.validateInterface(interface) }
        if let member { try DBusNames.validateMember(member) }
        for (index, value) in arguments {
            guard (0...63).contains(index) else { throw DBusError.invalidArgs("match rules cover arguments 0 to 63, not \(index)") }
            try DBusValue.validateString(value)
        }
        if ruleString.utf8.count > 1024 {
            throw DBusError(name: DBusError.Name.matchRuleInvalid, message: "the match rule is longer than 1024 bytes")
        }
    }

    /// Whether a signal's header matches; `owners` maps well-known names to their current owners.
    func matches(sender actual: String, path actualPath: String, interface actualInterface: String,
                 member actualMember: String, owners: [String: String]) -> Bool {
        if let sender, sender != actual {
            // A well-known name matches its current owner's unique name.
            guard !sender.hasPrefix(":"), owners[sender] == actual else { return false }
        }
        if let path, path.rawValue != actualPath { return false }
        if let pathNamespace, !DBusObjectPath(unchecked: actualPath).isInNamespace(pathNamespace) { return false }
        if let interface, interface != actualInterface { return false }
        if let member, member != actualMember { return false }
        return true
    }

    /// Whether a signal's arguments match the rule's argument filters.
    func matches(arguments actual: [DBusValue]) -> Bool {
        for (index, value) in arguments {
            guard index < actual.count, case .string(let text) = actual[index], text == value else { return false }
        }
        return true
    }
}

private extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for ch in self {
            if ch == target { out += replacement } else { out.append(ch) }
        }
        return out
    }
}
