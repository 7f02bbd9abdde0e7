import Foundation

/// An `engram://` link, parsed strictly: anything malformed or unknown is refused, nothing in it is run.
public enum DeepLink: Sendable, Equatable {
    case memory(id: String)
    case search(query: String)
    case curriculum(id: String)
    case topic(id: String)
    case remember(text: String, type: MemoryType, tags: [String])
    case sessionStart(curriculumID: String, topicID: String?)
    /// Pause, resume or stop a session (the active one when `id` is nil).
    case session(action: SessionAction, id: String?)
    case review
    case stats
    case context(name: String?)
    /// Continue here what another device is doing (its session or memory); `device` is a device id or name, or
    /// the session's or memory's id; nil: the most recent activity.
    case handoff(device: String?)

    /// What can be done to a running session.
    public enum SessionAction: String, Sendable, CaseIterable { case pause, resume, stop }

    /// The longest link accepted.
    public static let maxLength = 8192

    /// Parses `text`, or throws an error that says what is wrong with it.
    public static func parse(_ text: String) throws -> DeepLink {
        func bad(_ why: String) -> EngramError { .invalidInput("not a valid Engram link (\(why)): \(text.prefix(120))") }
        guard text.utf8.count <= maxLength else { throw bad("longer than \(maxLength) bytes") }
        guard !text.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }) else { throw bad("it contains spaces or control characters") }
        guard let c = URLComponents(string: text) else { throw bad("malformed") }
        guard c.scheme?.lowercased() == "engram" else { throw bad("the scheme must be engram://") }
        guard c.user == nil, c.password == nil, c.port == nil else { throw bad("it carries a user, password or port") }
        guard c.fragment == nil else { throw bad("it has a #fragment") }
        let host = (c.host ?? "").lowercased()
        let segments = c.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        var query: [String: String] = [:]
        for item in c.percentEncodedQueryItems ?? [] {
            guard query[item.name] == nil else { throw bad("'\(item.name)' is given twice") }
            guard let v = (item.value ?? "").replacingOccurrences(of: "+", with: " ").removingPercentEncoding else {
                throw bad("'\(item.name)' is not valid percent-encoded UTF-8")
            }
            query[item.name] = v
        }
        func allow(_ keys: Set<String>) throws {
            if let extra = query.keys.first(where: { !keys.contains($0) }) { throw bad("unknown parameter '\(extra)'") }
        }
        func one() throws -> String {
            guard segments.count == 1, let id = segments.first?.removingPercentEncoding, Identifier.isValid(id) else {
                throw bad("expected engram://\(host)/ID with an id of letters, digits, '-', '_' or '.'")
            }
            return id
        }
        func none() throws {
            guard segments.isEmpty || segments == [""] else { throw bad("unexpected path") }
        }
        func validID(_ key: String) throws -> String? {
            guard let v = query[key] else { return nil }
            guard Identifier.isValid(v) else { throw bad("'\(key)' must be an id of letters, digits, '-', '_' or '.'") }
            return v
        }
        switch host {
        case "memory": try allow([]); return .memory(id: try one())
        case "curriculum": try allow([]); return .curriculum(id: try one())
        case "topic": try allow([]); return .topic(id: try one())
        case "search":
            try none(); try allow(["q"])
            guard let q = query["q"], !q.allSatisfy(\.isWhitespace) else { throw bad("search needs ?q=") }
            return .search(query: q)
        case "remember":
            try none(); try allow(["text", "type", "tag"])
            guard let t = query["text"], !t.allSatisfy(\.isWhitespace) else { throw bad("remember needs ?text=") }
            try TextInput.requireNoNUL(t, what: "the text")
            var type = MemoryType.note
            if let s = query["type"] {
                guard let v = MemoryType(rawValue: s) else { throw bad("unknown type '\(s)'") }
                type = v
            }
            return .remember(text: t, type: type, tags: TextInput.normalizeTags(query["tag"].map { [$0] } ?? []))
        case "session":
            guard segments.count == 1 else { throw bad("expected engram://session/start|pause|resume|stop") }
            if segments[0] == "start" {
                try allow(["curriculum", "topic"])
                guard let cid = try validID("curriculum") else { throw bad("session/start needs ?curriculum=ID") }
                return .sessionStart(curriculumID: cid, topicID: try validID("topic"))
            }
            guard let action = SessionAction(rawValue: segments[0]) else { throw bad("unknown session action '\(segments[0])'") }
            try allow(["id"])
            return .session(action: action, id: try validID("id"))
        case "handoff":
            guard segments == ["continue"] else { throw bad("expected engram://handoff/continue?device=ID") }
            try allow(["device"])
            return .handoff(device: try validID("device"))
        case "review": try none(); try allow([]); return .review
        case "stats": try none(); try allow([]); return .stats
        case "context":
            try allow([])
            if segments.isEmpty || segments == [""] { return .context(name: nil) }
            return .context(name: try one())
        default:
            throw bad("unknown kind '\(host)'; Engram links are memory, search, curriculum, topic, remember, session, handoff, review, stats and context")
        }
    }

    /// The canonical link text.
    public var url: String {
        func enc(_ s: String) -> String {
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._~")
            return s.addingPercentEncoding(withAllowedCharacters: allowed) ?? s
        }
        switch self {
        case .memory(let id): return "engram://memory/\(id)"
        case .search(let q): return "engram://search?q=\(enc(q))"
        case .curriculum(let id): return "engram://curriculum/\(id)"
        case .topic(let id): return "engram://topic/\(id)"
        case .remember(let t, let type, let tags):
            return "engram://remember?text=\(enc(t))&type=\(type.rawValue)" + (tags.first.map { "&tag=\(enc($0))" } ?? "")
        case .sessionStart(let c, let t): return "engram://session/start?curriculum=\(c)" + (t.map { "&topic=\($0)" } ?? "")
        case .session(let a, let id): return "engram://session/\(a.rawValue)" + (id.map { "?id=\($0)" } ?? "")
        case .review: return "engram://review"
        case .stats: return "engram://stats"
        case .context(let n): return "engram://context" + (n.map { "/\($0)" } ?? "")
        case .handoff(let d): return "engram://handoff/continue" + (d.map { "?device=\(enc($0))" } ?? "")
        }
    }
}
