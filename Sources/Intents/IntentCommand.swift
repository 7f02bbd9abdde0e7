import EngramCore
import Foundation

/// An invocation as a launcher command: KRunner's match and rofi's row show `label`, and keep `commandID` to run it.
extension IntentInvocation {
    /// The scheme of command ids; they are opaque to launchers and never `engram://` links (links never run intents).
    public static let commandScheme = "intent"

    /// What a launcher shows: "Store a memory: “buy milk”", "Summarize a topic: “actors”, range week", "Daily review".
    public var label: String {
        let def = IntentCatalog.definition(name)
        let shown = def.parameters.enumerated().compactMap { i, p -> String? in
            guard let v = arguments[p.name]?.trimmingCharacters(in: .whitespaces), !v.isEmpty else { return nil }
            let value = Self.oneLine(v)
            return i == 0 && p.isRequired ? "“\(value)”" : "\(p.name) \(value)"
        }
        return shown.isEmpty ? def.title : def.title + ": " + shown.joined(separator: ", ")
    }

    /// A stable id that carries the intent and its arguments: `intent:StoreMemory?content=buy%20milk`.
    public var commandID: String {
        var c = URLComponents()
        c.scheme = Self.commandScheme
        c.path = name.rawValue
        c.queryItems = arguments.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        if c.queryItems?.isEmpty == true { c.queryItems = nil }
        // URLComponents leaves "+" and "&" inside values alone in some versions; encode them so values round-trip.
        c.percentEncodedQuery = c.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return c.string ?? "\(Self.commandScheme):\(name.rawValue)"
    }

    /// Reads a `commandID` back; throws for anything else.
    public init(commandID: String) throws {
        guard commandID.hasPrefix(Self.commandScheme + ":"), let c = URLComponents(string: commandID),
              let name = IntentName(rawValue: c.path) else {
            throw EngramError.invalidInput("“\(commandID.prefix(80))” is not an Engram command")
        }
        var args: [String: String] = [:]
        for item in c.queryItems ?? [] { args[item.name] = item.value ?? "" }
        self.init(name, args)
        _ = try resolved()
    }

    static func oneLine(_ s: String) -> String {
        let line = s.split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.count <= 60 ? line : String(line.prefix(59)) + "…"
    }
}
