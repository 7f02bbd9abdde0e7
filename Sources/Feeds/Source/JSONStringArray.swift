/// Decodes the store's `tags` column, a JSON array of strings, without Foundation.
enum JSONStringArray {
    /// The strings of a JSON array; anything that is not one gives an empty list rather than an error.
    static func decode(_ text: String) -> [String] {
        if text == "[]" { return [] }
        if !text.utf8.contains(0x5C), let fast = decodeWithoutEscapes(text) { return fast }
        return decodeEscaped(text)
    }

    /// The common case, no backslash anywhere: strings are cut straight out of the UTF-8 bytes.
    private static func decodeWithoutEscapes(_ text: String) -> [String]? {
        let b = Array(text.utf8)
        var i = 0
        func skipSpace() { while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x09 || b[i] == 0x0D { i += 1 } }
        skipSpace()
        guard i < b.count, b[i] == 0x5B else { return [] }
        i += 1
        var out: [String] = []
        while true {
            skipSpace()
            guard i < b.count else { return [] }
            if b[i] == 0x5D { return out }
            guard b[i] == 0x22 else { return [] }
            i += 1
            let start = i
            while i < b.count, b[i] != 0x22 { i += 1 }
            guard i < b.count else { return [] }
            out.append(String(decoding: b[start..<i], as: UTF8.self))
            i += 1
            skipSpace()
            guard i < b.count else { return [] }
            if b[i] == 0x2C { i += 1; continue }
            if b[i] == 0x5D { return out }
            return []
        }
    }

    /// Any array of strings, escapes included.
    private static func decodeEscaped(_ text: String) -> [String] {
        let s = Array(text.unicodeScalars)
        var i = 0
        func skipSpace() { while i < s.count, s[i] == " " || s[i] == "\n" || s[i] == "\t" || s[i] == "\r" { i += 1 } }
        skipSpace()
        guard i < s.count, s[i] == "[" else { return [] }
        i += 1
        var out: [String] = []
        while true {
            skipSpace()
            guard i < s.count else { return [] }
            if s[i] == "]" { return out }
            guard s[i] == "\"" else { return [] }
            i += 1
            var value = String.UnicodeScalarView()
            var pendingHigh: UInt32?
            while true {
                guard i < s.count else { return [] }
                let c = s[i]
                i += 1
                if c == "\"" { break }
                guard c == "\\" else { value.append(c); continue }
                guard i < s.count else { return [] }
                let e = s[i]
                i += 1
                switch e {
                case "n": value.append("\n")
                case "t": value.append("\t")
                case "r": value.append("\r")
                case "b": value.append("\u{8}")
                case "f": value.append("\u{C}")
                case "u":
                    guard i + 4 <= s.count, let v = UInt32(String(String.UnicodeScalarView(s[i..<(i + 4)])), radix: 16) else { return [] }
                    i += 4
                    if (0xD800...0xDBFF).contains(v) {
                        pendingHigh = v
                    } else if (0xDC00...0xDFFF).contains(v), let high = pendingHigh {
                        value.append(Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (v - 0xDC00))!)
                        pendingHigh = nil
                    } else {
                        value.append(Unicode.Scalar(v) ?? "\u{FFFD}")
                    }
                default: value.append(e)
                }
            }
            out.append(String(value))
            skipSpace()
            guard i < s.count else { return [] }
            if s[i] == "," { i += 1; continue }
            if s[i] == "]" { return out }
            return []
        }
    }
}
