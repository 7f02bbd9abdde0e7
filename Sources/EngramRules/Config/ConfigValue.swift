/// A value from `config.toml` as every reader of the file hands it to the section types: TOMLKit in the core, the
/// lean feed's own reader. Integers are numbers; dates and whatever a reader does not keep are `other`.
public enum ConfigValue: Equatable, Sendable {
    case number(Double)
    case bool(Bool)
    case string(String)
    case list([ConfigValue])
    case table([String: ConfigValue])
    case other

    /// The number, if this is one.
    public var number: Double? { if case .number(let n) = self { n } else { nil } }
    /// The number, if this is a whole one that fits an `Int`.
    public var integer: Int? {
        guard case .number(let n) = self, n.rounded() == n, n.magnitude < 9e15 else { return nil }
        return Int(n)
    }
    /// The boolean, if this is one.
    public var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
    /// The string, if this is one.
    public var string: String? { if case .string(let s) = self { s } else { nil } }
    /// The elements, if this is a list.
    public var list: [ConfigValue]? { if case .list(let l) = self { l } else { nil } }
    /// The keys and values, if this is a table.
    public var table: [String: ConfigValue]? { if case .table(let t) = self { t } else { nil } }
}

/// What is wrong with one setting, said so a person can fix it; the reader adds the file's name in front.
public struct ConfigProblem: Error, Equatable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// A section of `config.toml` (`[search]`, `[decay]`…): its keys with their defaults, and the checks each key's value
/// must pass. Every reader of the file goes through these types, so a key means the same and is refused with the
/// same words everywhere.
public protocol ConfigSection: Sendable, Equatable {
    /// The section's name in the file.
    static var sectionName: String { get }
    /// What the section is for, in a sentence (the configuration reference's).
    static var summary: String { get }
    /// Its keys, as the configuration reference shows them (`ConfigReference.swift`).
    static var keys: [ConfigKey] { get }
    /// The defaults.
    init()
    /// Takes one key of the section; unknown keys are left alone (a newer Engram's settings must not break this one).
    mutating func read(_ key: String, _ value: ConfigValue) throws(ConfigProblem)
}

extension ConfigSection {
    /// The section from its table (nil: absent, the defaults); keys in name order, so the first problem is stable.
    public static func read(_ table: [String: ConfigValue]?) throws(ConfigProblem) -> Self {
        var section = Self()
        for (key, value) in (table ?? [:]).sorted(by: { $0.key < $1.key }) { try section.read(key, value) }
        return section
    }

    /// The section read key by key, keeping what is valid and saying what is not (for a bar, which must keep working).
    public static func readLeniently(_ table: [String: ConfigValue]?) -> (section: Self, problems: [ConfigProblem]) {
        var section = Self()
        var problems: [ConfigProblem] = []
        for (key, value) in (table ?? [:]).sorted(by: { $0.key < $1.key }) {
            do throws(ConfigProblem) { try section.read(key, value) } catch { problems.append(error) }
        }
        return (section, problems)
    }

    /// The problem "`section.key` must …".
    static func must(_ key: String, _ rule: String) -> ConfigProblem {
        ConfigProblem("\(sectionName).\(key) must \(rule)")
    }
}

/// A path as people write it in the file: `~` and `~/…` are the home folder.
func expandingHome(_ path: String) -> String {
    guard path == "~" || path.hasPrefix("~/") else { return path }
    return EngramPaths.homeFolder() + path.dropFirst()
}
