/// One key of a `config.toml` section as the configuration reference shows it: what it takes, its default and a
/// value other than the default (the reference's tests read both, so a key that is documented is one the section
/// knows, and its documented default is the one it has).
public struct ConfigKey: Sendable {
    /// The key's name in the section.
    public var name: String
    /// What it takes, in words ("a number of seconds from 1 to 120").
    public var takes: String
    /// Its default as the file would hold it; nil when unset means something else (`unset` says what).
    public var defaultValue: ConfigValue?
    /// What leaving it out means when it has no default value ("sync is off").
    public var unset: String
    /// A value the section takes other than the default.
    public var example: ConfigValue
    /// What it changes.
    public var summary: String

    public init(_ name: String, takes: String, default defaultValue: ConfigValue?, unset: String = "", example: ConfigValue,
                _ summary: String) {
        self.name = name
        self.takes = takes
        self.defaultValue = defaultValue
        self.unset = unset
        self.example = example
        self.summary = summary
    }
}

extension ConfigValue {
    /// The value as `config.toml` writes it: `10`, `0.8`, `true`, `"auto"`, `["kgx", "--"]`, `{ note = 30 }`.
    public var toml: String {
        switch self {
        case .number(let n):
            if n.rounded() == n, n.magnitude < 1e15 { return String(Int(n)) }
            return String(n)
        case .bool(let b): return b ? "true" : "false"
        case .string(let s):
            var out = "\""
            for c in s.unicodeScalars {
                switch c {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                default: out.unicodeScalars.append(c)
                }
            }
            return out + "\""
        case .list(let l): return "[" + l.map(\.toml).joined(separator: ", ") + "]"
        case .table(let t): return "{ " + t.sorted { $0.key < $1.key }.map { "\($0.key) = \($0.value.toml)" }.joined(separator: ", ") + " }"
        case .other: return "…"
        }
    }
}

/// The sections of `config.toml` whose rules live here, in the order the reference lists them.
public enum ConfigSections {
    public static let all: [any ConfigSection.Type] = [
        SearchSettings.self, DecayModel.self, IndexSettings.self, DesktopSettings.self, DaemonSettings.self,
        SyncSettings.self, PrivacySettings.self, VoiceSettings.self,
    ]

    /// The configuration reference: per section, each key with what it takes, its default and what it does.
    public static func markdown() -> String {
        var out: [String] = []
        for section in all {
            out += ["### `[\(section.sectionName)]`", "", section.summary, "",
                    "| key | takes | default | what it does |", "|---|---|---|---|"]
            for key in section.keys {
                let fallback = key.defaultValue.map { "`\($0.toml)`" } ?? key.unset
                out.append("| `\(key.name)` | \(cell(key.takes)) | \(cell(fallback)) | \(cell(key.summary)) |")
            }
            out.append("")
        }
        return out.joined(separator: "\n")
    }

    private static func cell(_ text: String) -> String {
        var out = ""
        for c in text { out += c == "|" ? "\\|" : String(c) }
        return out
    }
}
