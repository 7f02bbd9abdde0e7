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
        // On the bytes: each search decodes twenty of these, and String splitting cost more than Xapian's snippets.
        let bytes = data.bindMemory(to: UInt8.self)
        let n = bytes.count
        func lineEnd(_ from: Int) -> Int {
            var i = from
            while i < n, bytes[i] != 10 { i += 1 }
            return i
        }
        func text(_ from: Int, _ to: Int) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self)
        }
        var end = lineEnd(0)
        guard text(0, end) == signature else { return nil }
        var kind: IndexKind?
        var id: String?
        var document = IndexDocument(kind: .memory, id: "", title: "", body: "", created: Date(timeIntervalSince1970: 0))
        var start = end + 1
        // The header ends at the first blank line, exactly where the shim starts the body.
        while start < n {
            end = lineEnd(start)
            if end == start { break }
            defer { start = end + 1 }
            var equals = start
            while equals < end, bytes[equals] != UInt8(ascii: "=") { equals += 1 }
            guard equals < end else { continue }
            let value = unescape(text(equals + 1, end))
            switch text(start, equals) {
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
