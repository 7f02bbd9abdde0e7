/// Decodes the store's `tags` column, a JSON array of strings, without Foundation.
enum JSONStringArray {
    /// The strings of a JSON array; anything that is not one gives an empty list rather than an error.
    static func decode(_ text: String) -> [String] {
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
