/// A reader for the scalar keys of a TOML document, enough for the few settings feeds honour.
///
/// It understands the whole TOML syntax well enough to walk past what it does not keep (arrays,
/// multi-line strings, dates, arrays of tables) and returns every number, boolean and string under its
/// full dotted key path, e.g. `decay.half_life_days.note`. It does not validate the document.
enum TOMLScalars {
    /// A scalar value.
    enum Value: Equatable {
        case number(Double)
        case bool(Bool)
        case string(String)
        /// A date, array or anything else feeds do not read.
        case other
    }

    /// Why a document could not be read.
    struct Failure: Error, Equatable {
        var line: Int
        var message: String
    }

    /// Every scalar of `text` by dotted key path.
    static func read(_ text: String) throws(Failure) -> [String: Value] {
        var p = Parser(Array(text.unicodeScalars))
        return try p.document()
    }

    private struct Parser {
        let s: [Unicode.Scalar]
        var i = 0
        var line = 1
        var out: [String: Value] = [:]

        init(_ s: [Unicode.Scalar]) { self.s = s }

        var peek: Unicode.Scalar? { i < s.count ? s[i] : nil }
        func at(_ k: Int) -> Unicode.Scalar? { i + k < s.count ? s[i + k] : nil }

        func fail(_ message: String) -> Failure { Failure(line: line, message: message) }

        mutating func advance() {
            if s[i] == "\n" { line += 1 }
            i += 1
        }

        mutating func skipBlanks() { while let c = peek, c == " " || c == "\t" { advance() } }

        mutating func skipComment() {
            if peek == "#" { while let c = peek, c != "\n" { advance() } }
        }

        /// Blanks, comments and newlines (between statements, and inside arrays).
        mutating func skipTrivia() {
            while let c = peek {
                if c == " " || c == "\t" || c == "\r" || c == "\n" { advance() } else if c == "#" { skipComment() } else { break }
            }
        }

        mutating func document() throws(Failure) -> [String: Value] {
            var table: [String] = []
            while true {
                skipTrivia()
                guard let c = peek else { return out }
                if c == "[" {
                    advance()
                    let array = peek == "["
                    if array { advance() }
                    skipBlanks()
                    table = try keyPath()
                    skipBlanks()
                    guard peek == "]" else { throw fail("expected ] after a table name") }
                    advance()
                    if array {
                        guard peek == "]" else { throw fail("expected ]] after an array-of-tables name") }
                        advance()
                    }
                } else {
                    try keyValue(prefix: table)
                }
                skipBlanks()
                skipComment()
                if let c = peek, c != "\n", c != "\r" { throw fail("unexpected text after a value") }
            }
        }

        mutating func keyValue(prefix: [String]) throws(Failure) {
            let key = prefix + (try keyPath())
            skipBlanks()
            guard peek == "=" else { throw fail("expected = after a key") }
            advance()
            skipBlanks()
            try value(at: key)
        }

        mutating func keyPath() throws(Failure) -> [String] {
            var parts: [String] = []
            while true {
                skipBlanks()
                guard let c = peek else { throw fail("expected a key") }
                if c == "\"" || c == "'" {
                    parts.append(try singleLineString())
                } else {
                    var part = ""
                    while let c = peek, c.properties.isAlphabetic || c.properties.numericType != nil || c == "_" || c == "-" {
                        part.unicodeScalars.append(c)
                        advance()
                    }
                    guard !part.isEmpty else { throw fail("expected a key") }
                    parts.append(part)
                }
                skipBlanks()
                guard peek == "." else { return parts }
                advance()
            }
        }

        mutating func value(at key: [String]) throws(Failure) {
            guard let c = peek else { throw fail("expected a value") }
            switch c {
            case "\"", "'":
                if at(1) == c && at(2) == c {
                    out[key.joined(separator: ".")] = .string(try multiLineString())
                } else {
                    out[key.joined(separator: ".")] = .string(try singleLineString())
                }
            case "{":
                advance()
                skipBlanks()
                if peek == "}" { advance(); return }
                while true {
                    try keyValue(prefix: key)
                    skipBlanks()
                    if peek == "," { advance(); skipBlanks(); continue }
                    guard peek == "}" else { throw fail("expected , or } in an inline table") }
                    advance()
                    return
                }
            case "[":
                try skipArray()
                out[key.joined(separator: ".")] = .other
            default:
                var token = ""
                while let c = peek, !(c == " " || c == "\t" || c == "\n" || c == "\r" || c == "," || c == "}" || c == "]" || c == "#") {
                    token.unicodeScalars.append(c)
                    advance()
                }
                // A date-time may hold one space between its day and time.
                if peek == " ", token.count == 10, let d = at(1), d.properties.numericType != nil {
                    advance()
                    while let c = peek, !(c == " " || c == "\t" || c == "\n" || c == "\r" || c == "," || c == "}" || c == "]" || c == "#") {
                        advance()
                    }
                }
                guard !token.isEmpty else { throw fail("expected a value") }
                out[key.joined(separator: ".")] = Self.scalar(token)
            }
        }

        static func scalar(_ token: String) -> Value {
            if token == "true" { return .bool(true) }
            if token == "false" { return .bool(false) }
            let digits = token.replacingUnderscores()
            for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where digits.hasPrefix(prefix) {
                return Int(digits.dropFirst(2), radix: radix).map { .number(Double($0)) } ?? .other
            }
            if digits.contains(":") || digits.dropFirst().contains("-") && !digits.contains("e") && !digits.contains("E") { return .other }
            return Double(digits).map { .number($0) } ?? .other
        }

        mutating func skipArray() throws(Failure) {
            var depth = 0
            while let c = peek {
                switch c {
                case "[": depth += 1; advance()
                case "]":
                    depth -= 1
                    advance()
                    if depth == 0 { return }
                case "#": skipComment()
                case "\"", "'":
                    if at(1) == c && at(2) == c { _ = try multiLineString() } else { _ = try singleLineString() }
                default: advance()
                }
            }
            throw fail("an array is not closed")
        }

        mutating func singleLineString() throws(Failure) -> String {
            let quote = s[i]
            advance()
            var text = ""
            while let c = peek {
                if c == "\n" { break }
                advance()
                if c == quote { return text }
                if c == "\\" && quote == "\"" {
                    guard let e = peek else { break }
                    advance()
                    switch e {
                    case "n": text += "\n"
                    case "t": text += "\t"
                    case "r": text += "\r"
                    case "b": text += "\u{8}"
                    case "f": text += "\u{C}"
                    case "u", "U":
                        let n = e == "u" ? 4 : 8
                        var hex = ""
                        for _ in 0..<n { if let h = peek { hex.unicodeScalars.append(h); advance() } }
                        if let v = UInt32(hex, radix: 16), let u = Unicode.Scalar(v) { text.unicodeScalars.append(u) }
                    default: text.unicodeScalars.append(e)
                    }
                } else {
                    text.unicodeScalars.append(c)
                }
            }
            throw fail("a string is not closed on its line")
        }

        mutating func multiLineString() throws(Failure) -> String {
            let quote = s[i]
            advance(); advance(); advance()
            if peek == "\n" { advance() }
            var text = ""
            while let c = peek {
                if c == quote && at(1) == quote && at(2) == quote {
                    advance(); advance(); advance()
                    // Up to two more quotes belong to the string.
                    while peek == quote { text.unicodeScalars.append(quote); advance() }
                    return text
                }
                if c == "\\" && quote == "\"" {
                    advance()
                    if let e = peek { text.unicodeScalars.append(e); advance() }
                    continue
                }
                text.unicodeScalars.append(c)
                advance()
            }
            throw fail("a multi-line string is not closed")
        }
    }
}

private extension String {
    func replacingUnderscores() -> String { String(unicodeScalars.filter { $0 != "_" }.map(Character.init)) }
}
