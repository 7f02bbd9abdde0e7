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
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            if key.hasPrefix("decay.half_life_days.") {
                let name = String(key.dropFirst("decay.half_life_days.".count))
                guard let kind = MemoryType(rawValue: name) else {
                    c.warnings.append("\(origin): [decay.half_life_days] has unknown type '\(name)'; ignored")
                    continue
                }
                guard case .number(let days) = value, days > 0 else {
                    c.warnings.append("\(origin): half_life_days.\(name) must be a positive number of days; ignored")
                    continue
                }
                c.decay.halfLifeDays[kind] = days
            } else if key == "decay.reinforcement_factor" {
                guard case .number(let f) = value, f >= 1 else {
                    c.warnings.append("\(origin): decay.reinforcement_factor must be ≥ 1; ignored")
                    continue
                }
                c.decay.reinforcementFactor = f
            } else if key == "privacy.feeds", value == .bool(false) {
                c.feedsEnabled = false
            }
        }
        return c
    }
}
