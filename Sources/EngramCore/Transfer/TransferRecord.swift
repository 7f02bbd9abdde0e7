import Foundation

/// One line of Engram's JSON Lines format (`engram export` / `engram import`), versioned by `kind`.
public enum TransferRecord: Sendable, Equatable {
    case memory(Memory)
    case link(MemoryLink)
    case curriculum(Curriculum)
    case topic(Topic)
}

/// Reads and writes the JSON Lines format: one object per line, dates in ISO-8601 UTC, keys sorted.
public enum JSONLines {
    /// The format version written in the header line.
    public static let version = 1

    private struct MemoryLine: Codable {
        var kind = "memory"
        var id: String?
        var content: String
        var type: MemoryType?
        var tags: [String]?
        var context: String?
        var created: String?
        var updated: String?
        var lastReinforced: String?
        var useCount: Int?
        var pinned: Bool?
        var source: String?
    }

    private struct LinkLine: Codable {
        var kind = "link"
        var from: String
        var to: String
        var origin: LinkOrigin?
        var weight: Double?
        var created: String?
    }

    private struct CurriculumLine: Codable {
        var kind = "curriculum"
        var id: String
        var title: String
        var description: String?
        var created: String?
        var updated: String?
        var source: String?
    }

    private struct TopicLine: Codable {
        var kind = "topic"
        var id: String
        var curriculum: String
        var position: Int
        var title: String
        var notes: String?
        var flagged: Bool?
        var done: Bool?
        var created: String?
        var updated: String?
    }

    private struct Kind: Decodable { var kind: String? }

    private static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()

    /// Encodes one record as a single line (no trailing newline).
    public static func encode(_ record: TransferRecord) throws -> String {
        let data: Data
        switch record {
        case .memory(let m):
            data = try encoder.encode(MemoryLine(id: m.id, content: m.content, type: m.type, tags: m.tags, context: m.context,
                                                 created: ISODate.format(m.created), updated: ISODate.format(m.updated),
                                                 lastReinforced: ISODate.format(m.lastReinforced), useCount: m.useCount,
                                                 pinned: m.pinned, source: m.source))
        case .link(let l):
            data = try encoder.encode(LinkLine(from: l.fromID, to: l.toID, origin: l.origin, weight: l.weight, created: ISODate.format(l.created)))
        case .curriculum(let c):
            data = try encoder.encode(CurriculumLine(id: c.id, title: c.title, description: c.description,
                                                     created: ISODate.format(c.created), updated: ISODate.format(c.updated), source: c.source))
        case .topic(let t):
            data = try encoder.encode(TopicLine(id: t.id, curriculum: t.curriculumID, position: t.position, title: t.title, notes: t.notes,
                                                flagged: t.flagged, done: t.done, created: ISODate.format(t.created), updated: ISODate.format(t.updated)))
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Decodes one line; `now` fills dates a hand-written line leaves out. Throws a message naming what is wrong.
    public static func decode(_ line: String, now: Date) throws -> TransferRecord {
        try decodeLine(line, now: now).record
    }

    /// Decodes one line, and tells whether it is a memory line that gave no `created` date (hand-written: its
    /// dates and use count are not part of what it says, so re-importing it keeps the stored ones).
    public static func decodeLine(_ line: String, now: Date) throws -> (record: TransferRecord, withoutDates: Bool) {
        let data = Data(line.utf8)
        let decoder = JSONDecoder()
        let kind: String?
        do {
            kind = try decoder.decode(Kind.self, from: data).kind
        } catch {
            throw EngramError.invalidInput("not a JSON object")
        }
        func date(_ s: String?, _ field: String, default d: Date) throws -> Date {
            guard let s else { return d }
            guard let v = ISODate.parse(s) else { throw EngramError.invalidInput("\(field) '\(s)' is not an ISO-8601 date") }
            return v
        }
        var withoutDates = false  // set for memory lines below
        func check(_ id: String, _ what: String) throws {
            guard Identifier.isValid(id) else { throw EngramError.invalidInput("\(what) id '\(id)' must be 1–64 letters, digits, '-', '_' or '.'") }
        }
        do {
            switch kind ?? "memory" {
            case "memory":
                let l = try decoder.decode(MemoryLine.self, from: data)
                withoutDates = l.created == nil
                let id = l.id ?? Identifier.make()
                try check(id, "memory")
                guard !l.content.allSatisfy(\.isWhitespace) else { throw EngramError.invalidInput("memory \(id) has no content") }
                try TextInput.requireNoNUL(l.content, what: "memory \(id)")
                let created = try date(l.created, "created", default: now)
                let updated = try date(l.updated, "updated", default: created)
                return (.memory(Memory(id: id, content: l.content, type: l.type ?? .note, tags: l.tags ?? [], context: l.context,
                                      created: created, updated: updated,
                                      lastReinforced: try date(l.lastReinforced, "lastReinforced", default: created),
                                      useCount: max(0, l.useCount ?? 0), pinned: l.pinned ?? false, source: l.source)), withoutDates)
            case "link":
                let l = try decoder.decode(LinkLine.self, from: data)
                return (.link(MemoryLink(fromID: l.from, toID: l.to, origin: l.origin ?? .manual, weight: l.weight ?? 1,
                                         created: try date(l.created, "created", default: now))), false)
            case "curriculum":
                let l = try decoder.decode(CurriculumLine.self, from: data)
                try check(l.id, "curriculum")
                let created = try date(l.created, "created", default: now)
                return (.curriculum(Curriculum(id: l.id, title: l.title, description: l.description ?? "", created: created,
                                               updated: try date(l.updated, "updated", default: created), source: l.source)), false)
            case "topic":
                let l = try decoder.decode(TopicLine.self, from: data)
                try check(l.id, "topic")
                let created = try date(l.created, "created", default: now)
                return (.topic(Topic(id: l.id, curriculumID: l.curriculum, position: l.position, title: l.title, notes: l.notes ?? "",
                                     flagged: l.flagged ?? false, done: l.done ?? false, created: created,
                                     updated: try date(l.updated, "updated", default: created))), false)
            case let other:
                throw EngramError.invalidInput("unknown kind '\(other)' (expected memory, link, curriculum or topic)")
            }
        } catch let e as EngramError {
            throw e
        } catch DecodingError.keyNotFound(let key, _) {
            throw EngramError.invalidInput("missing \"\(key.stringValue)\"")
        } catch DecodingError.typeMismatch(_, let ctx), DecodingError.valueNotFound(_, let ctx) {
            throw EngramError.invalidInput("wrong type for \"\(ctx.codingPath.map(\.stringValue).joined(separator: "."))\"")
        } catch DecodingError.dataCorrupted(let ctx) {
            throw EngramError.invalidInput("bad value for \"\(ctx.codingPath.map(\.stringValue).joined(separator: "."))\": \(ctx.debugDescription)")
        }
    }
}
