import Foundation
import TOMLKit
import Yams

/// A curriculum written by hand in TOML or YAML: `id`, `title`, `description`, `created` and `[[topics]]`.
public enum CurriculumFile {
    /// Reads a `.toml`, `.yaml` or `.yml` file into a curriculum and its ordered topics.
    public static func load(path: String, now: Date) throws -> (Curriculum, [Topic]) {
        guard let data = FileManager.default.contents(atPath: path) else { throw EngramError.io("cannot read \(path)") }
        let text = try TextInput.decode(data, what: path)
        let ext = (path as NSString).pathExtension.lowercased()
        let map: [String: Any]
        switch ext {
        case "toml": map = try parseTOML(text, origin: path)
        case "yaml", "yml":
            do {
                guard let m = try Yams.load(yaml: text) as? [String: Any] else {
                    throw EngramError.invalidInput("\(path): expected a mapping with title and topics")
                }
                map = m
            } catch let e as EngramError { throw e } catch {
                throw EngramError.invalidInput("\(path): not valid YAML (\(error))")
            }
        default:
            throw EngramError.invalidInput("\(path): a curriculum file ends in .toml, .yaml or .yml")
        }
        return try build(map, origin: path, now: now)
    }

    static func parseTOML(_ text: String, origin: String) throws -> [String: Any] {
        do {
            return convert(try TOMLTable(string: text)) as? [String: Any] ?? [:]
        } catch let e as TOMLParseError {
            throw EngramError.invalidInput("\(origin):\(e.source.begin.line): \(e.description)")
        }
    }

    static func convert(_ v: Any) -> Any {
        if let t = v as? TOMLTable { return Dictionary(t.map { ($0.0, convert($0.1)) }, uniquingKeysWith: { a, _ in a }) }
        if let a = v as? TOMLArray { return a.map { convert($0) } }
        if let c = v as? TOMLValueConvertible {
            if let s = c.string { return s }
            if let b = c.bool { return b }
            if let i = c.int { return i }
            if let d = c.double { return d }
            if let dt = c.dateTime, let date = dt.date { return date }
            if let t = c.table { return convert(t) }
            if let a = c.array { return a.map { convert($0) } }
        }
        return "\(v)"
    }

    static func slug(_ s: String) -> String {
        let parts = s.lowercased().unicodeScalars.map { CharacterSet.alphanumerics.contains($0) && $0.isASCII ? Character($0) : "-" }
        return String(parts).split(separator: "-").joined(separator: "-").prefix(48).description
    }

    static func build(_ map: [String: Any], origin: String, now: Date) throws -> (Curriculum, [Topic]) {
        guard let title = map["title"] as? String, !title.isEmpty else {
            throw EngramError.invalidInput("\(origin): a curriculum needs a title")
        }
        let id = (map["id"] as? String) ?? slug(title)
        guard Identifier.isValid(id) else { throw EngramError.invalidInput("\(origin): id '\(id)' must be letters, digits, '-', '_' or '.'") }
        func date(_ v: Any?) -> Date? {
            if let d = v as? Date { return d }
            if let s = v as? String { return ISODate.parse(s) }
            return nil
        }
        let created = date(map["created"]) ?? now
        let curriculum = Curriculum(id: id, title: title, description: (map["description"] as? String) ?? "", created: created,
                                    updated: date(map["updated"]) ?? created, source: "file:" + (origin as NSString).lastPathComponent)
        let raw = map["topics"] as? [Any] ?? []
        var topics: [Topic] = []
        for (i, item) in raw.enumerated() {
            guard let t = item as? [String: Any], let tt = t["title"] as? String, !tt.isEmpty else {
                throw EngramError.invalidInput("\(origin): topic \(i + 1) needs a title")
            }
            let tid = (t["id"] as? String) ?? "\(id)-\(i + 1)"
            guard Identifier.isValid(tid) else { throw EngramError.invalidInput("\(origin): topic id '\(tid)' must be letters, digits, '-', '_' or '.'") }
            topics.append(Topic(id: tid, curriculumID: id, position: i + 1, title: tt, notes: (t["notes"] as? String) ?? "",
                                flagged: (t["flagged"] as? Bool) ?? false, done: (t["done"] as? Bool) ?? false,
                                created: date(t["created"]) ?? created))
        }
        let dup = Dictionary(grouping: topics, by: \.id).filter { $0.value.count > 1 }.keys
        if let d = dup.first { throw EngramError.invalidInput("\(origin): topic id '\(d)' appears twice") }
        return (curriculum, topics)
    }
}
