import Foundation
import TOMLKit

/// Settings read from `config.toml`; every key is optional and has a sensible default.
public struct EngramConfig: Sendable, Equatable {
    /// The forgetting curve.
    public var decay = DecayModel.standard
    /// How strongly freshness weighs against text relevance in search.
    public var searchDecayWeight = 1.0
    /// Results shown by default.
    public var searchLimit = 10
    /// Outbox entries applied per index commit.
    public var indexBatchSize = 1000
    /// Seconds the daemon waits after a forget before compacting the index (forgets meanwhile share the compaction).
    public var indexCompactDelay = 10.0
    /// New memories are linked to at most this many related ones (0 turns auto-linking off).
    public var autoLinkCount = 3
    /// The minimum relatedness (0…1) for an automatic link.
    public var autoLinkMinScore = 0.35
    /// Integrations that may run (all on by default): "gnome", "krunner", "feeds", "notifications".
    public var disabledIntegrations: Set<String> = []
    /// Whether search also finds by meaning (sentence embeddings) when the model is installed.
    public var semantic = true
    /// Where the meaning-search model and engine are (`[search] model_dir`); nil: where `make` installs them.
    public var modelDirectory: String?
    /// The model file in that folder (`[search] model`): `e5-small-q4.bin` (multilingual) or `e5-small-enpt-q4.bin`.
    public var modelFile = "e5-small-q4.bin"
    /// The folder shared with the person's other devices (`[sync] folder`); nil: sync is off.
    public var syncFolder: String?
    /// How long another device's activity is offered to continue here (`[sync] handoff_minutes`, 0: never).
    public var handoffMinutes = 15.0
    /// The raw document, for sections other modules own (shortcuts, phrases).
    public var rawTOML: String = ""

    /// The defaults.
    public init() {}

    /// Loads `path`; a missing file gives the defaults, a malformed one a clear error.
    public static func load(from path: String) throws -> EngramConfig {
        guard FileManager.default.fileExists(atPath: path) else { return EngramConfig() }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw EngramError.config("cannot read \(path)")
        }
        let text = try TextInput.decode(data, what: path)
        return try parse(text, origin: path)
    }

    /// Parses TOML text.
    public static func parse(_ text: String, origin: String = "config.toml") throws -> EngramConfig {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let e as TOMLParseError {
            throw EngramError.config("\(origin):\(e.source.begin.line):\(e.source.begin.column): \(e.description)")
        } catch {
            throw EngramError.config("\(origin): \(error)")
        }
        var c = EngramConfig()
        c.rawTOML = text
        func number(_ v: TOMLValueConvertible?) -> Double? {
            if let d = v?.double { return d }
            if let i = v?.int { return Double(i) }
            return nil
        }
        if let decay = table["decay"]?.table {
            if let hl = decay["half_life_days"]?.table {
                for (k, v) in hl {
                    guard let t = MemoryType(rawValue: k) else {
                        throw EngramError.config("\(origin): [decay.half_life_days] has unknown type '\(k)'; use one of \(MemoryType.allCases.map(\.rawValue).joined(separator: ", "))")
                    }
                    guard let d = number(v), d > 0 else { throw EngramError.config("\(origin): half_life_days.\(k) must be a positive number of days") }
                    c.decay.halfLifeDays[t] = d
                }
            }
            if let f = number(decay["reinforcement_factor"]) {
                guard f >= 1 else { throw EngramError.config("\(origin): decay.reinforcement_factor must be ≥ 1") }
                c.decay.reinforcementFactor = f
            }
        }
        if let s = table["search"]?.table {
            if let w = number(s["decay_weight"]) { c.searchDecayWeight = max(0, w) }
            if let l = s["limit"]?.int { c.searchLimit = max(1, l) }
            if let v = s["semantic"] {
                guard let on = v.bool else { throw EngramError.config("\(origin): search.semantic must be true or false") }
                c.semantic = on
            }
            if let d = s["model_dir"]?.string { c.modelDirectory = (d as NSString).expandingTildeInPath }
            if let m = s["model"]?.string {
                guard !m.contains("/"), m.hasSuffix(".bin") else {
                    throw EngramError.config("\(origin): search.model is a model file name in model_dir, such as e5-small-q4.bin")
                }
                c.modelFile = m
            }
        }
        if let i = table["index"]?.table {
            if let b = i["batch_size"]?.int { c.indexBatchSize = min(max(1, b), 100_000) }
            if let d = number(i["compact_after_forget_seconds"]) { c.indexCompactDelay = min(max(0, d), 3600) }
            if let n = i["auto_link"]?.int { c.autoLinkCount = max(0, n) }
            if let m = number(i["auto_link_min_score"]) { c.autoLinkMinScore = min(max(0, m), 1) }
        }
        if let s = table["sync"]?.table, let v = s["folder"] {
            guard let folder = v.string.map({ ($0 as NSString).expandingTildeInPath }), folder.hasPrefix("/") else {
                throw EngramError.config("\(origin): sync.folder must be a folder's full path (or start with ~/), such as \"~/Sync/engram\"")
            }
            c.syncFolder = folder
        }
        if let s = table["sync"]?.table, let v = s["handoff_minutes"] {
            guard let m = number(v), m >= 0 else {
                throw EngramError.config("\(origin): sync.handoff_minutes must be a number of minutes (0 turns handoff offers off)")
            }
            c.handoffMinutes = min(m, 24 * 60)
        }
        if let p = table["privacy"]?.table {
            for key in ["gnome", "krunner", "feeds", "notifications"] where p[key]?.bool == false {
                c.disabledIntegrations.insert(key)
            }
        }
        return c
    }
}
