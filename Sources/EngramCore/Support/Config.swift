import Foundation
import TOMLKit

/// Settings read from `config.toml`, once per process: every section is a type of EngramRules (its keys, defaults
/// and checks, shared with the lean feed's reader); every key is optional and has a sensible default.
public struct EngramConfig: Sendable, Equatable {
    /// `[decay]`: the forgetting curve.
    public var decay = DecayModel.standard
    /// `[search]`.
    public var search = SearchSettings()
    /// `[index]`.
    public var index = IndexSettings()
    /// `[sync]`.
    public var sync = SyncSettings()
    /// `[privacy]`.
    public var privacy = PrivacySettings()
    /// `[desktop]`.
    public var desktop = DesktopSettings()
    /// `[daemon]`.
    public var daemon = DaemonSettings()
    /// `[voice]`.
    public var voice = VoiceSettings()
    /// `[phrases]` as written: the Intents module checks them against its catalog (`ShortcutConfig`).
    public var phrases: [String: ConfigValue] = [:]
    /// `[[shortcuts]]` as written: the Intents module reads them (`ShortcutConfig`).
    public var shortcuts: [ConfigValue] = []

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
        let document = Self.value(table).table ?? [:]
        func section<S: ConfigSection>(_: S.Type) throws -> S {
            do throws(ConfigProblem) {
                return try S.read(document[S.sectionName]?.table)
            } catch {
                throw EngramError.config("\(origin): \(error.message)")
            }
        }
        var c = EngramConfig()
        c.decay = try section(DecayModel.self)
        c.search = try section(SearchSettings.self)
        c.index = try section(IndexSettings.self)
        c.sync = try section(SyncSettings.self)
        c.privacy = try section(PrivacySettings.self)
        c.desktop = try section(DesktopSettings.self)
        c.daemon = try section(DaemonSettings.self)
        c.voice = try section(VoiceSettings.self)
        c.phrases = document["phrases"]?.table ?? [:]
        c.shortcuts = document["shortcuts"]?.list ?? []
        return c
    }

    /// A TOMLKit value as the section types read it.
    static func value(_ v: any TOMLValueConvertible) -> ConfigValue {
        if let b = v.bool { return .bool(b) }
        if let i = v.int { return .number(Double(i)) }
        if let d = v.double { return .number(d) }
        if let s = v.string { return .string(s) }
        if let a = v.array { return .list(a.map { value($0) }) }
        if let t = v.table { return .table(Dictionary(uniqueKeysWithValues: t.map { ($0.0, value($0.1)) })) }
        return .other
    }
}

extension EngramConfig {
    /// How strongly freshness weighs against text relevance in search (`[search] decay_weight`).
    public var searchDecayWeight: Double { get { search.decayWeight } set { search.decayWeight = newValue } }
    /// Results shown by default (`[search] limit`).
    public var searchLimit: Int { get { search.limit } set { search.limit = newValue } }
    /// Whether search also finds by meaning (`[search] semantic`).
    public var semantic: Bool { get { search.semantic } set { search.semantic = newValue } }
    /// Where the meaning-search model is (`[search] model_dir`); nil: where `make` installs it.
    public var modelDirectory: String? { get { search.modelDirectory } set { search.modelDirectory = newValue } }
    /// The model file in that folder (`[search] model`).
    public var modelFile: String { get { search.modelFile } set { search.modelFile = newValue } }
    /// Outbox entries applied per index commit (`[index] batch_size`).
    public var indexBatchSize: Int { get { index.batchSize } set { index.batchSize = newValue } }
    /// Seconds after a forget before the daemon compacts the index (`[index] compact_after_forget_seconds`).
    public var indexCompactDelay: Double { get { index.compactDelay } set { index.compactDelay = newValue } }
    /// New memories are linked to at most this many related ones (`[index] auto_link`; 0: off).
    public var autoLinkCount: Int { get { index.autoLinkCount } set { index.autoLinkCount = newValue } }
    /// The minimum relatedness (0…1) for an automatic link (`[index] auto_link_min_score`).
    public var autoLinkMinScore: Double { get { index.autoLinkMinScore } set { index.autoLinkMinScore = newValue } }
    /// The folder shared with the person's other devices (`[sync] folder`); nil: sync is off.
    public var syncFolder: String? { get { sync.folder } set { sync.folder = newValue } }
    /// How long another device's activity is offered here (`[sync] handoff_minutes`, 0: never).
    public var handoffMinutes: Double { get { sync.handoffMinutes } set { sync.handoffMinutes = newValue } }
    /// Integrations turned off (`[privacy]`): "gnome", "krunner", "feeds", "notifications".
    public var disabledIntegrations: Set<String> { get { privacy.disabled } set { privacy.disabled = newValue } }
}
