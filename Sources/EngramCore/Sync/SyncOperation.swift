import Foundation
import GRDB

/// One change to the synced state, as a line of a device's log: `{"v":1,"hlc":…,"dev":…,"op":…,"e":…,"item":…}`.
///
/// Kinds (`op`):
/// - `set`: fields of an item (`f`, column → value), last writer wins per field;
/// - `tag`: a memory's tag added or removed (`tag`, `add`);
/// - `link`: the link between memories `item` and `other` added or removed (`add`, `origin`, `weight`);
/// - `count`: this device's running total of a counter (`counter` = `uses` | `seconds`, `total`);
/// - `forget`: a tombstone for the item.
public struct SyncOperation: Codable, Sendable, Equatable {
    /// The schema version this Engram writes and understands.
    public static let schema = 1

    /// What an operation does.
    public enum Kind: String, Codable, Sendable { case set, tag, link, count, forget }

    public var v: Int
    public var hlc: String
    public var dev: String
    public var op: Kind
    /// The entity: `memory`, `curriculum`, `topic`, `session` (`memory` for tags and links).
    public var e: SyncEntity
    public var item: String
    public var f: [String: SyncValue]?
    public var tag: String?
    public var add: Bool?
    public var other: String?
    public var origin: String?
    public var weight: Double?
    public var counter: String?
    public var total: Double?

    /// An operation of this schema.
    public init(hlc: HybridClock, dev: String, op: Kind, e: SyncEntity, item: String, f: [String: SyncValue]? = nil,
                tag: String? = nil, add: Bool? = nil, other: String? = nil, origin: String? = nil, weight: Double? = nil,
                counter: String? = nil, total: Double? = nil) {
        self.v = SyncOperation.schema
        self.hlc = hlc.description
        self.dev = dev
        self.op = op
        self.e = e
        self.item = item
        self.f = f
        self.tag = tag
        self.add = add
        self.other = other
        self.origin = origin
        self.weight = weight
        self.counter = counter
        self.total = total
    }

    /// The operation's identity and merge position.
    public var stamp: String { "\(hlc)@\(dev)" }

    /// The operation's clock reading (validated by `check`).
    public var clock: HybridClock { HybridClock(hlc) ?? .zero }

    /// The log line (no newline): JSON with sorted keys, so the same operation is always the same line.
    public func line() throws -> String {
        let data = try SyncOperation.encoder.encode(self)
        return String(decoding: data, as: UTF8.self)
    }

    /// The largest running total a counter may carry (uses, or seconds: about 31 million years); a sum of a few
    /// such totals still fits the store's columns.
    public static let maxTotal = 1e15

    /// Whether `text` passes the checks local input gets: no NUL (`TextInput.requireNoNUL`), at most
    /// `Store.maxContentBytes`.
    static func isText(_ text: String) -> Bool {
        text.utf8.count <= Store.maxContentBytes && (try? TextInput.requireNoNUL(text, what: "")) != nil
    }

    /// At most `limit` characters of a peer's `text` for a message, control characters (NUL included, which would
    /// cut the message short in SQLite) shown as `�`.
    static func shown(_ text: String, _ limit: Int) -> String {
        String(String.UnicodeScalarView(text.prefix(limit).unicodeScalars.map {
            $0.properties.generalCategory == .control ? "\u{FFFD}" : $0
        }))
    }

    /// Why this operation cannot be applied, or nil when it is well formed. Peers' operations get the checks
    /// local input gets (ids, text, dates, ranges).
    public func problem() -> String? {
        guard HybridClock(hlc) != nil else { return "its clock '\(SyncOperation.shown(hlc, 40))' is not a clock reading" }
        guard DeviceID.isValid(dev) else { return "its device '\(SyncOperation.shown(dev, 40))' is not a device id" }
        guard Identifier.isValid(item) else { return "its item id '\(SyncOperation.shown(item, 40))' is not an id (1–64 letters, digits, '-', '_' or '.')" }
        switch op {
        case .set:
            for (field, value) in f ?? [:] {
                guard e.syncedFields.contains(field) else { return "it sets a field \(e.rawValue)s do not have ('\(SyncOperation.shown(field, 40))')" }
                guard e.accepts(field, value) else { return "its value for \(e.rawValue) field '\(field)' does not fit that field" }
                if let p = futureDate(field, value) { return p }
            }
        case .tag:
            if e != .memory || (tag ?? "").isEmpty || add == nil { return "its tag change is incomplete" }
            if let tag, TextInput.normalizeTag(tag) != tag || tag.utf8.count > 256 || !SyncOperation.isText(tag) {
                return "its tag '\(SyncOperation.shown(tag, 40))' is not a tag as Engram writes them"
            }
        case .link:
            if e != .memory || (other ?? "").isEmpty || other == item || add == nil { return "its link change is incomplete" }
            if let o = other, !Identifier.isValid(o) { return "its linked id '\(SyncOperation.shown(o, 40))' is not an id" }
            if let w = weight, !w.isFinite || w < 0 || w > 1_000_000 { return "its link weight is not a number from 0 to 1000000" }
            if let o = origin, LinkOrigin(rawValue: o) == nil { return "its link origin '\(SyncOperation.shown(o, 20))' is unknown" }
            for (field, value) in f ?? [:] {
                guard field == "created", case .text(let t) = value, SyncEntity.isStoredDate(t) else {
                    return "its link field '\(SyncOperation.shown(field, 40))' is not a creation date as the store keeps dates"
                }
                if let p = futureDate(field, value) { return p }
            }
        case .count:
            if e.counter(named: counter ?? "") == nil || !(total ?? -1).isFinite || (total ?? -1) < 0 { return "its counter is unknown or negative" }
            if let total, total > SyncOperation.maxTotal { return "its \(counter ?? "") total \(total) is out of range (at most \(SyncOperation.maxTotal))" }
        case .forget: break
        }
        return nil
    }

    /// Why a date value is refused: more than `HybridClock.maxSkewMilliseconds` after the operation's own clock. A
    /// `latest` date (`updated`, `lastReinforced`) that far ahead would win over every later value for good, and a
    /// memory reinforced in 2999 would never fade; Engram's own imports take such dates as now
    /// (`Store.upsertMemories`), so only a clock or a file gone wrong sends one.
    func futureDate(_ field: String, _ value: SyncValue) -> String? {
        // Only the date fields: a memory's text or an id may look like a date ("2027-06-01") and is no date.
        guard SyncOperation.dateFields.contains(field), case .text(let t) = value, let instant = Timestamp.parse(t),
              instant * 1000 > Double(clock.wall + HybridClock.maxSkewMilliseconds) else { return nil }
        return "its \(e.rawValue) \(field) \(t) is more than a day after the operation itself was written (\(Timestamp.iso(Double(clock.wall) / 1000))): a clock or a file gone wrong on device \(dev)"
    }

    /// The fields that hold dates (as the store keeps them), in every entity and in links.
    static let dateFields: Set<String> = ["created", "updated", "lastReinforced", "started", "resumed", "ended"]

    static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()

    /// The schema version of a line, read before the rest so a newer line is kept rather than rejected.
    struct Version: Decodable { var v: Int? }

    /// How a log line reads.
    enum Parsed {
        case operation(SyncOperation)
        /// From a newer Engram (schema or kind unknown here): kept for later.
        case newer(String)
        /// Dated more than `HybridClock.maxSkewMilliseconds` after `now`: held (kept) until its time comes, so a
        /// peer whose clock runs years ahead cannot win every later edit.
        case early(String)
        case corrupt(String)
    }

    /// The names of the items a line (of any schema) is about, `item` and `other`, read loosely; for dropping kept
    /// lines about a forgotten item.
    static func names(_ line: String) -> [String] {
        struct Names: Decodable { var item: String?; var other: String? }
        guard let n = try? JSONDecoder().decode(Names.self, from: Data(line.utf8)) else { return [] }
        return [n.item, n.other].compactMap { $0 }
    }

    /// Reads one log line; with `now` (milliseconds), an operation dated more than a day after it is `early`.
    static func parse(_ line: Substring, now: Int64? = nil) -> Parsed {
        let data = Data(line.utf8)
        let decoder = JSONDecoder()
        guard let version = try? decoder.decode(Version.self, from: data), let v = version.v else {
            return .corrupt("the line is not an operation (not JSON, or cut short)")
        }
        if v > schema { return .newer("it was written by a newer Engram (operation schema v\(v); this one reads v\(schema))") }
        do {
            let op = try decoder.decode(SyncOperation.self, from: data)
            if let p = op.problem() { return .corrupt(p) }
            if let now, op.clock.wall > now + HybridClock.maxSkewMilliseconds {
                let date = Timestamp.iso(Double(op.clock.wall) / 1000)
                return .early("it is dated \(date), more than a day in the future (is device \(op.dev)'s clock wrong?); held until then")
            }
            return .operation(op)
        } catch DecodingError.dataCorrupted(let ctx) where ctx.debugDescription.contains("Cannot initialize") {
            return .newer("it names an operation kind or entity this Engram does not know")
        } catch {
            return .corrupt("the operation is malformed (\(SyncOperation.describe(error)))")
        }
    }

    static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): return "no '\(shown(key.stringValue, 40))'"
        case DecodingError.typeMismatch(_, let ctx), DecodingError.valueNotFound(_, let ctx):
            return "wrong type at '\(shown(ctx.codingPath.map(\.stringValue).joined(separator: "."), 80))'"
        case DecodingError.dataCorrupted(let ctx): return shown(ctx.debugDescription, 200)
        default: return shown("\(error)", 200)
        }
    }
}

/// A field value as SQLite stores it: null, integer, real or text. JSON: `null`, a number, `{"real": x}`, a string.
public enum SyncValue: Codable, Sendable, Equatable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    /// The value of a database value (blobs are not synced and read as null).
    public init(_ value: DatabaseValue) {
        switch value.storage {
        case .null, .blob: self = .null
        case .int64(let i): self = .integer(i)
        case .double(let d): self = .real(d)
        case .string(let s): self = .text(s)
        }
    }

    /// The value for the database.
    public var databaseValue: DatabaseValue {
        switch self {
        case .null: return .null
        case .integer(let i): return i.databaseValue
        case .real(let d): return d.databaseValue
        case .text(let s): return s.databaseValue
        }
    }

    private struct Real: Codable { var real: Double }

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let s = try? c.decode(String.self) { self = .text(s) }
        else if let i = try? c.decode(Int64.self) { self = .integer(i) }
        else { self = .real(try c.decode(Real.self).real) }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .integer(let i): try c.encode(i)
        case .real(let d): try c.encode(Real(real: d))
        case .text(let s): try c.encode(s)
        }
    }
}
