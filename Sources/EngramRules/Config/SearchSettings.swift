/// `[search]`: how results are ranked and how many are shown, and meaning search.
///
///     [search]
///     decay_weight = 1.0          # how much freshness weighs against text relevance
///     limit = 10
///     semantic = true             # also find by meaning when the model is installed
///     model_dir = "~/models"      # default: where `make` installs it
///     model = "e5-small-q4.bin"
public struct SearchSettings: ConfigSection {
    public static let sectionName = "search"
    /// How strongly freshness weighs against text relevance.
    public var decayWeight = 1.0
    /// Results shown by default.
    public var limit = 10
    /// Whether search also finds by meaning (sentence embeddings) when the model is installed.
    public var semantic = true
    /// Where the meaning-search model and engine are; nil: where `make` installs them.
    public var modelDirectory: String?
    /// The model file in that folder: `e5-small-q4.bin` (multilingual) or `e5-small-enpt-q4.bin`.
    public var modelFile = "e5-small-q4.bin"

    public init() {}

    public mutating func read(_ key: String, _ value: ConfigValue) throws(ConfigProblem) {
        switch key {
        case "decay_weight":
            guard let w = value.number else { return }
            guard w.isFinite else { throw Self.must(key, "be a number (0 ranks by text alone)") }
            decayWeight = max(0, w)
        case "limit":
            if let l = value.integer { limit = max(1, l) }
        case "semantic":
            guard let on = value.bool else { throw Self.must(key, "be true or false") }
            semantic = on
        case "model_dir":
            if let d = value.string { modelDirectory = expandingHome(d) }
        case "model":
            guard let m = value.string else { return }
            guard !m.contains("/"), m.hasSuffix(".bin") else {
                throw ConfigProblem("search.model is a model file name in model_dir, such as e5-small-q4.bin")
            }
            modelFile = m
        default:
            return
        }
    }
}

/// `[index]`: how the index follows the store.
///
///     [index]
///     batch_size = 1000                   # outbox entries per index commit
///     compact_after_forget_seconds = 10
///     auto_link = 3                       # link each new memory to up to 3 related ones
///     auto_link_min_score = 0.35
public struct IndexSettings: ConfigSection {
    public static let sectionName = "index"
    /// Outbox entries applied per index commit.
    public var batchSize = 1000
    /// Seconds the daemon waits after a forget before compacting the index (forgets meanwhile share the compaction).
    public var compactDelay = 10.0
    /// New memories are linked to at most this many related ones (0 turns auto-linking off).
    public var autoLinkCount = 3
    /// The minimum relatedness (0…1) for an automatic link.
    public var autoLinkMinScore = 0.35

    public init() {}

    public mutating func read(_ key: String, _ value: ConfigValue) throws(ConfigProblem) {
        switch key {
        case "batch_size": if let b = value.integer { batchSize = min(max(1, b), 100_000) }
        case "compact_after_forget_seconds": if let d = value.number { compactDelay = min(max(0, d), 3600) }
        case "auto_link": if let n = value.integer { autoLinkCount = max(0, n) }
        case "auto_link_min_score": if let m = value.number { autoLinkMinScore = min(max(0, m), 1) }
        default: return
        }
    }
}

/// `[sync]`: the folder shared with the person's other devices, and handoff.
///
///     [sync]
///     folder = "~/Sync/engram"
///     handoff_minutes = 15        # 0 turns handoff offers off
public struct SyncSettings: ConfigSection {
    public static let sectionName = "sync"
    /// The folder shared with the person's other devices; nil: sync is off.
    public var folder: String?
    /// How long another device's activity is offered to continue here (0: never).
    public var handoffMinutes = 15.0

    public init() {}

    public mutating func read(_ key: String, _ value: ConfigValue) throws(ConfigProblem) {
        switch key {
        case "folder":
            guard let path = value.string.map(expandingHome), path.hasPrefix("/") else {
                throw Self.must(key, "be a folder's full path (or start with ~/), such as \"~/Sync/engram\"")
            }
            folder = path
        case "handoff_minutes":
            guard let m = value.number, m >= 0 else { throw Self.must(key, "be a number of minutes (0 turns handoff offers off)") }
            handoffMinutes = min(m, 24 * 60)
        default:
            return
        }
    }
}

/// `[privacy]`: integrations turned off (all run by default).
///
///     [privacy]
///     gnome = false       # also krunner, feeds, notifications, voice (`engram listen` and its buttons)
public struct PrivacySettings: ConfigSection {
    public static let sectionName = "privacy"
    /// The integrations a person can turn off.
    public static let integrations = ["gnome", "krunner", "feeds", "notifications", "voice"]
    /// Those turned off.
    public var disabled: Set<String> = []

    public init() {}

    public mutating func read(_ key: String, _ value: ConfigValue) throws(ConfigProblem) {
        guard Self.integrations.contains(key) else { return }
        if value.bool == false { disabled.insert(key) }
    }
}
