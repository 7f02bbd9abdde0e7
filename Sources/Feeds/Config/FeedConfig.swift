#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The settings from `config.toml` that feeds honour: the forgetting curve and `[privacy] feeds = false`.
///
/// A bar must keep working, so a config that cannot be read gives the defaults and a warning instead of an error.
public struct FeedConfig: Sendable, Equatable {
    /// The forgetting curve (`[decay]`).
    public var decay = DecayModel.standard
    /// False when `[privacy] feeds = false`: every feed then shows nothing.
    public var feedsEnabled = true
    /// What was wrong with the file, one sentence each.
    public var warnings: [String] = []

    /// The defaults.
    public init() {}

    /// Reads `path`; a missing file gives the defaults.
    public static func load(from path: String) -> FeedConfig {
        guard let fd = fopen(path, "r") else {
            var c = FeedConfig()
            if errno != ENOENT { c.warnings.append("cannot read \(path): \(String(cString: strerror(errno))); using the default settings") }
            return c
        }
        defer { fclose(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let n = fread(&buffer, 1, buffer.count, fd)
            if n <= 0 { break }
            bytes.append(contentsOf: buffer[0..<n])
        }
        return parse(String(decoding: bytes, as: UTF8.self), origin: path)
    }

    /// The reader's dotted key paths (`decay.half_life_days.note`) as nested tables, as the section types take them.
    static func nest(_ values: [String: TOMLScalars.Value]) -> [String: ConfigValue] {
        func insert(_ path: ArraySlice<Substring>, _ value: ConfigValue, into table: inout [String: ConfigValue]) {
            guard let first = path.first else { return }
            let key = String(first)
            if path.count == 1 { table[key] = value; return }
            var inner = table[key]?.table ?? [:]
            insert(path.dropFirst(), value, into: &inner)
            table[key] = .table(inner)
        }
        var out: [String: ConfigValue] = [:]
        for (key, value) in values {
            let v: ConfigValue
            switch value {
            case .number(let n): v = .number(n)
            case .bool(let b): v = .bool(b)
            case .string(let s): v = .string(s)
            case .other: v = .other
            }
            insert(ArraySlice(key.split(separator: ".", omittingEmptySubsequences: false)), v, into: &out)
        }
        return out
    }

    /// Reads TOML text.
    public static func parse(_ text: String, origin: String = "config.toml") -> FeedConfig {
        var c = FeedConfig()
        let values: [String: TOMLScalars.Value]
        do {
            values = try TOMLScalars.read(text)
        } catch {
            c.warnings.append("\(origin):\(error.line): \(error.message); feeds use the default settings")
            return c
        }
        // The same section types as the core's EngramConfig: the same keys, checks and words; here what is wrong is
        // skipped with a warning instead of refusing the file.
        let document = Self.nest(values)
        let decay = DecayModel.readLeniently(document[DecayModel.sectionName]?.table)
        let privacy = PrivacySettings.readLeniently(document[PrivacySettings.sectionName]?.table)
        c.decay = decay.section
        c.feedsEnabled = !privacy.section.disabled.contains("feeds")
        c.warnings += (decay.problems + privacy.problems).map { "\(origin): \($0.message); ignored" }
        return c
    }
}
