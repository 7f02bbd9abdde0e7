import EngramCore
import TOMLKit

/// The `[desktop]` section of config.toml (what opening a result from GNOME Shell or KRunner does) and the
/// `[daemon]` section (how often it sweeps faded items from the index).
///
///     [desktop]
///     open = "terminal"            # show it in a terminal; "none": only strengthen it (GNOME also copies it)
///     terminal = ["kgx", "--"]     # the terminal's argv; Engram appends its own command. Default: detected
///     min_letters = 3              # KRunner asks Engram only from this many letters on
///
///     [daemon]
///     sweep_interval = 3600        # seconds between sweeps; the first runs a minute after the daemon starts
public struct DesktopSettings: Sendable, Equatable {
    /// What opening a result shows.
    public enum OpenAction: String, Sendable {
        /// A terminal running `engram show` (or `engram search` for LaunchSearch).
        case terminal
        /// Nothing beyond strengthening the memory.
        case none
    }

    /// What opening a result shows.
    public var open: OpenAction = .terminal
    /// The terminal's argv prefix; nil to detect one.
    public var terminal: [String]?
    /// KRunner's minimum query length in letters.
    public var minLetters = 3
    /// Seconds between sweeps of faded items from the index; nil for the daemon's default.
    public var sweepInterval: Int?

    /// The range `[daemon] sweep_interval` accepts: a second to a week.
    public static let sweepIntervals = 1...(7 * 86_400)

    /// The defaults.
    public init() {}

    /// Reads the section from the whole config text; a missing section gives the defaults.
    public static func parse(_ toml: String, origin: String = "config.toml") throws -> DesktopSettings {
        var settings = DesktopSettings()
        guard !toml.isEmpty else { return settings }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: toml)
        } catch {
            throw EngramError.config("\(origin): \(error)")
        }
        if let value = table["daemon"]?.table?["sweep_interval"] {
            guard let n = value.int, sweepIntervals.contains(n) else {
                throw EngramError.config("\(origin): daemon.sweep_interval must be a number of seconds from 1 to \(sweepIntervals.upperBound)")
            }
            settings.sweepInterval = n
        }
        guard let desktop = table["desktop"]?.table else { return settings }
        if let value = desktop["open"] {
            guard let text = value.string, let open = OpenAction(rawValue: text) else {
                throw EngramError.config("\(origin): desktop.open must be \"terminal\" or \"none\"")
            }
            settings.open = open
        }
        if let value = desktop["terminal"] {
            guard let array = value.array, !array.isEmpty else {
                throw EngramError.config("\(origin): desktop.terminal must be a list of words, e.g. [\"gnome-terminal\", \"--\"]")
            }
            var argv: [String] = []
            for element in array {
                guard let word = element.string, !word.isEmpty, !word.utf8.contains(0) else {
                    throw EngramError.config("\(origin): desktop.terminal must hold only non-empty strings")
                }
                argv.append(word)
            }
            settings.terminal = argv
        }
        if let value = desktop["min_letters"] {
            guard let n = value.int, (1...20).contains(n) else {
                throw EngramError.config("\(origin): desktop.min_letters must be a number from 1 to 20")
            }
            settings.minLetters = n
        }
        return settings
    }
}
