/// `[desktop]`: what opening a result from GNOME Shell or KRunner does.
///
///     [desktop]
///     open = "app"                 # Engram's window (the default); "terminal": `engram show` in a terminal (also
///                                  # what "app" does when engram-app is not installed); "none": only strengthen it
///     terminal = ["kgx", "--"]     # the terminal's argv; Engram appends its own command. Default: detected
///     min_letters = 3              # KRunner asks Engram only from this many letters on
public struct DesktopSettings: ConfigSection {
    public static let sectionName = "desktop"

    /// What opening a result shows.
    public enum OpenAction: String, Sendable {
        /// Engram's window, on the memory, search or curriculum.
        case app
        /// A terminal running `engram show` (or `engram search` for LaunchSearch).
        case terminal
        /// Nothing beyond strengthening the memory.
        case none
    }

    /// What opening a result shows.
    public var open: OpenAction = .app
    /// The terminal's argv prefix; nil to detect one.
    public var terminal: [String]?
    /// KRunner's minimum query length in letters.
    public var minLetters = 3

    public init() {}

    public mutating func read(_ key: String, _ value: ConfigValue) throws(ConfigProblem) {
        switch key {
        case "open":
            guard let text = value.string, let action = OpenAction(rawValue: text) else {
                throw Self.must(key, "be \"app\", \"terminal\" or \"none\"")
            }
            open = action
        case "terminal":
            guard let list = value.list, !list.isEmpty else {
                throw Self.must(key, "be a list of words, e.g. [\"gnome-terminal\", \"--\"]")
            }
            var argv: [String] = []
            for element in list {
                guard let word = element.string, !word.isEmpty, !word.utf8.contains(0) else {
                    throw Self.must(key, "hold only non-empty strings")
                }
                argv.append(word)
            }
            terminal = argv
        case "min_letters":
            guard let n = value.integer, (1...20).contains(n) else { throw Self.must(key, "be a number from 1 to 20") }
            minLetters = n
        default:
            return
        }
    }
}

/// `[daemon]`: how often the daemon sweeps faded items from the index.
///
///     [daemon]
///     sweep_interval = 3600        # seconds between sweeps; the first runs a minute after the daemon starts
public struct DaemonSettings: ConfigSection {
    public static let sectionName = "daemon"
    /// The range `sweep_interval` accepts: a second to a week.
    public static let sweepIntervals = 1...(7 * 86_400)
    /// Seconds between sweeps of faded items from the index; nil for the daemon's default.
    public var sweepInterval: Int?

    public init() {}

    public mutating func read(_ key: String, _ value: ConfigValue) throws(ConfigProblem) {
        guard key == "sweep_interval" else { return }
        guard let n = value.integer, Self.sweepIntervals.contains(n) else {
            throw Self.must(key, "be a number of seconds from 1 to \(Self.sweepIntervals.upperBound)")
        }
        sweepInterval = n
    }
}
