import EngramCore
import Foundation

/// A named list of phrases run one after another.
public struct Shortcut: Sendable, Equatable, Codable {
    public var name: String
    public var steps: [String]
    public var summary: String?
    /// A key chord for `engram shortcut bind`, e.g. "Super+Shift+S".
    public var key: String?

    /// Creates a shortcut.
    public init(name: String, steps: [String], summary: String? = nil, key: String? = nil) {
        self.name = name
        self.steps = steps
        self.summary = summary
        self.key = key
    }
}

/// The person's own phrases and shortcuts from `config.toml`:
///
///     [phrases]
///     "brain dump {content}" = "StoreMemory"
///
///     [[shortcuts]]
///     name = "Quick Study"
///     steps = ["start studying swift-concurrency", "summarize actors this week"]
///     key = "Super+Shift+S"
public struct ShortcutConfig: Sendable, Equatable {
    public var phrases: [(template: String, intent: IntentName)] = []
    public var shortcuts: [Shortcut] = []

    /// No phrases and no shortcuts.
    public init() {}

    public static func == (a: ShortcutConfig, b: ShortcutConfig) -> Bool {
        a.shortcuts == b.shortcuts && a.phrases.map { "\($0.template)=\($0.intent.rawValue)" } == b.phrases.map { "\($0.template)=\($0.intent.rawValue)" }
    }

    /// Reads the `[phrases]` and `[[shortcuts]]` sections of TOML text (tests and tools; a process reads its config
    /// once, as `EngramConfig`, and uses `init(_:origin:)`).
    public static func parse(_ toml: String, origin: String = "config.toml") throws -> ShortcutConfig {
        try ShortcutConfig(EngramConfig.parse(toml, origin: origin), origin: origin)
    }

    /// The phrases and shortcuts of a config already read; anything wrong is reported with what to fix.
    public init(_ config: EngramConfig, origin: String = "config.toml") throws {
        for (template, v) in config.phrases.sorted(by: { $0.key < $1.key }) {
            guard let name = v.string, let def = IntentCatalog.definition(named: name) else {
                throw EngramError.config("\(origin): [phrases] \"\(template)\" must name an intent: \(IntentName.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let phrase = Phrase(template)
            for slot in phrase.slots where def.parameter(slot) == nil {
                throw EngramError.config("\(origin): [phrases] \"\(template)\": \(name) has no parameter {\(slot)}; it takes \(def.parameters.map { "{\($0.name)}" }.joined(separator: ", "))")
            }
            phrases.append((template, def.name))
        }
        phrases.sort { $0.template < $1.template }
        for (i, entry) in config.shortcuts.enumerated() {
            guard let t = entry.table, let name = t["name"]?.string, !name.isEmpty else {
                throw EngramError.config("\(origin): shortcut \(i + 1) needs a name")
            }
            guard let steps = t["steps"]?.list?.compactMap({ $0.string }), !steps.isEmpty else {
                throw EngramError.config("\(origin): shortcut “\(name)” needs steps = [\"a phrase\", …]")
            }
            if shortcuts.contains(where: { $0.name.lowercased() == name.lowercased() }) {
                throw EngramError.config("\(origin): two shortcuts are called “\(name)”")
            }
            shortcuts.append(Shortcut(name: name, steps: steps, summary: t["description"]?.string, key: t["key"]?.string))
        }
    }

    /// The shortcut called `name` (case-insensitively).
    public func shortcut(named name: String) throws -> Shortcut {
        guard let s = shortcuts.first(where: { $0.name.lowercased() == name.lowercased() }) else {
            throw EngramError.notFound(shortcuts.isEmpty
                ? "no shortcuts yet; add [[shortcuts]] to config.toml (see Samples/config.toml)"
                : "no shortcut called “\(name)”; you have: \(shortcuts.map(\.name).joined(separator: ", "))")
        }
        return s
    }
}

extension IntentRunner {
    /// Runs each step of `shortcut` in order; stops at the first step that fails, saying which.
    public func run(_ shortcut: Shortcut) throws -> [IntentResult] {
        let m = try matcher()
        var results: [IntentResult] = []
        for (i, step) in shortcut.steps.enumerated() {
            do {
                results.append(try run(try m.match(step)))
            } catch {
                throw EngramError.invalidInput("shortcut “\(shortcut.name)” stopped at step \(i + 1) (“\(step)”): \(error); steps before it ran")
            }
        }
        return results
    }

    /// Runs `shortcut` as a desktop keybinding does, where nobody reads a terminal: each step is understood as spoken
    /// words, and the first step Engram is not sure of ends the run with its question (the options as follow-ups, so
    /// a notification offers them as buttons). Steps before it ran; nothing after it does.
    public func respond(_ shortcut: Shortcut) throws -> [IntentResult] {
        var results: [IntentResult] = []
        for (i, step) in shortcut.steps.enumerated() {
            let result: IntentResult
            do {
                result = try respond(step)
            } catch {
                throw EngramError.invalidInput("shortcut “\(shortcut.name)” stopped at step \(i + 1) (“\(step)”): \(error); steps before it ran")
            }
            results.append(result)
            if result.clarification != nil { break }
        }
        return results
    }
}
