import Foundation

/// Turns raw bytes from a person (stdin, files, D-Bus) into text, refusing what is not UTF-8.
public enum TextInput {
    /// Decodes UTF-8, or throws a clear error naming the first bad byte; `lossy` replaces bad bytes with U+FFFD instead.
    public static func decode(_ data: Data, lossy: Bool = false, what: String = "input") throws -> String {
        if let s = String(validating: data, as: UTF8.self) { return s }
        if lossy { return String(decoding: data, as: UTF8.self) }
        throw invalidUTF8(what: what, offset: firstInvalidOffset(data), lossyHint: true)
    }

    /// The error for text that is not UTF-8; `lossyHint` adds that --lossy replaces the bad bytes (standard input).
    public static func invalidUTF8(what: String, offset: Int, lossyHint: Bool) -> EngramError {
        .invalidInput("\(what) is not valid UTF-8 (bad byte at offset \(offset)); nothing was saved. Convert it first (for example `iconv -f latin1 -t utf-8`)"
                      + (lossyHint ? " or pass --lossy to replace the bad bytes with �." : "."))
    }

    /// The offset of the first byte that does not start or continue a valid UTF-8 sequence.
    public static func firstInvalidOffset(_ data: Data) -> Int {
        let bytes = [UInt8](data)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            let n: Int
            if b < 0x80 { n = 1 } else if b & 0xE0 == 0xC0, b >= 0xC2 { n = 2 } else if b & 0xF0 == 0xE0 { n = 3 } else if b & 0xF8 == 0xF0, b <= 0xF4 { n = 4 } else { return i }
            if i + n > bytes.count { return i }
            for k in 1..<n where bytes[i + k] & 0xC0 != 0x80 { return i }
            if String(validating: bytes[i..<(i + n)], as: UTF8.self) == nil { return i }
            i += n
        }
        return bytes.count
    }

    /// Throws when `text` holds a NUL character, which SQLite text (and every desktop sink) would cut short.
    public static func requireNoNUL(_ text: String, what: String) throws {
        if let i = text.utf8.firstIndex(of: 0) {
            let offset = text.utf8.distance(from: text.utf8.startIndex, to: i)
            throw EngramError.invalidInput("\(what) contains a NUL byte at offset \(offset); Engram keeps text, not binary data. Remove it and try again; nothing was saved.")
        }
    }

    /// Normalises a tag: trimmed, lowercased, inner whitespace turned to `-`, a leading `#` dropped.
    public static func normalizeTag(_ tag: String) -> String {
        var t = tag.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        while t.hasPrefix("#") { t.removeFirst() }
        return t.split(whereSeparator: { $0.isWhitespace }).joined(separator: "-")
    }

    /// Normalised, de-duplicated, non-empty tags in their first order.
    public static func normalizeTags(_ tags: [String]) -> [String] {
        var seen = Set<String>()
        return tags.flatMap { $0.split(separator: ",").map(String.init) }.map(normalizeTag).filter { !$0.isEmpty && seen.insert($0).inserted }
    }
}
