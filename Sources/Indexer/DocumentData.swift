import Foundation

/// The stored Xapian document data: a readable header of `key=value` lines, a blank line, then the body.
///
/// Hits are built from it alone (no store lookup), `quest` and `xapian-delve -d` show it
/// legibly, and the shim takes snippets from the body after the first blank line.
/// Header values escape backslash, newline and carriage return.
enum DocumentData {
    /// The first line, naming the format and its version.
    static let signature = "engram-doc 1"

    /// Encodes a document's fields and body.
    static func encode(_ document: IndexDocument) -> String {
        var lines = [signature]
        func add(_ key: String, _ value: String?) {
            if let value { lines.append("\(key)=\(escape(value))") }
        }
        add("kind", document.kind.rawValue)
        add("id", document.id)
        add("title", document.title)
        add("type", document.type)
        for tag in document.tags { add("tag", tag) }
        add("context", document.context)
        add("curriculum", document.curriculumID)
        add("created", String(document.created.timeIntervalSince1970))
        add("expiry", document.expiry.map { String($0.timeIntervalSince1970) })
        return lines.joined(separator: "\n") + "\n\n" + document.body
    }

    /// Decodes the header (not the body) of stored data; nil if it is not Engram data.
    static func decodeHeader(_ data: UnsafeRawBufferPointer) -> IndexDocument? {
        let bytes = data.bindMemory(to: UInt8.self)
        // The header ends at the first blank line, exactly where the shim starts the body.
        var end = bytes.count
        if bytes.count >= 2 {
            for index in 0..<(bytes.count - 1) where bytes[index] == 10 && bytes[index + 1] == 10 {
                end = index
                break
            }
        }
        let header = String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<end]), as: UTF8.self)
        var lines = header.utf8.split(separator: 10, omittingEmptySubsequences: false).makeIterator()
        guard let first = lines.next(), String(first) == signature else { return nil }
        var kind: IndexKind?
        var id: String?
        var document = IndexDocument(kind: .memory, id: "", title: "", body: "", created: Date(timeIntervalSince1970: 0))
        for line in IteratorSequence(lines) {
            guard let equals = line.firstIndex(of: UInt8(ascii: "=")) else { continue }
            guard let key = String(line[..<equals]) else { continue }
            let value = unescape(String(Substring(line[line.index(after: equals)...])))
            switch key {
            case "kind": kind = IndexKind(rawValue: value)
            case "id": id = value
            case "title": document.title = value
            case "type": document.type = value
            case "tag": document.tags.append(value)
            case "context": document.context = value
            case "curriculum": document.curriculumID = value
            case "created": document.created = Date(timeIntervalSince1970: Double(value) ?? 0)
            case "expiry": document.expiry = Double(value).map(Date.init(timeIntervalSince1970:))
            default: continue  // Unknown keys from a newer version are skipped.
            }
        }
        guard let kind, let id else { return nil }
        document.kind = kind
        document.id = id
        return document
    }

    /// Escapes a header value so it stays on one line.
    static func escape(_ value: String) -> String {
        guard value.unicodeScalars.contains(where: { $0 == "\\" || $0 == "\n" || $0 == "\r" }) else { return value }
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Reverses `escape`.
    static func unescape(_ value: String) -> String {
        guard value.utf8.contains(UInt8(ascii: "\\")) else { return value }
        var out = ""
        var escaping = false
        for scalar in value.unicodeScalars {
            if escaping {
                switch scalar {
                case "n": out += "\n"
                case "r": out += "\r"
                default: out.unicodeScalars.append(scalar)
                }
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
