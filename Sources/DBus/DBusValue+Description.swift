extension DBusValue: CustomStringConvertible {
    /// The value in GVariant text form, as `gdbus` prints it: `'s'`, `uint32 5`, `[1, 2]`, `{'k': <'v'>}`.
    public var description: String { text(typed: true) }

    private func text(typed: Bool) -> String {
        switch self {
        case .byte(let v):
            let hex = "0x" + String(v, radix: 16).leftPadded(to: 2)
            return typed ? "byte " + hex : hex
        case .boolean(let v): return v ? "true" : "false"
        case .int16(let v): return typed ? "int16 \(v)" : "\(v)"
        case .uint16(let v): return typed ? "uint16 \(v)" : "\(v)"
        case .int32(let v): return "\(v)"
        case .uint32(let v): return typed ? "uint32 \(v)" : "\(v)"
        case .int64(let v): return typed ? "int64 \(v)" : "\(v)"
        case .uint64(let v): return typed ? "uint64 \(v)" : "\(v)"
        case .double(let v): return Self.doubleText(v)
        case .string(let s): return Self.quoted(s)
        case .objectPath(let p): return typed ? "objectpath \(Self.quoted(p.rawValue))" : Self.quoted(p.rawValue)
        case .signature(let g): return typed ? "signature \(Self.quoted(g.rawValue))" : Self.quoted(g.rawValue)
        case .array(let element, let items):
            if items.isEmpty { return "@a\(element) []" }
            // Like GVariant, only the first element carries a type annotation.
            let parts = items.enumerated().map { $0.element.text(typed: typed && $0.offset == 0) }
            return "[" + parts.joined(separator: ", ") + "]"
        case .dictionary(let key, let value, let entries):
            if entries.isEmpty { return "@a{\(key)\(value)} {}" }
            let parts = entries.enumerated().map { index, entry in
                entry.key.text(typed: typed && index == 0) + ": " + entry.value.text(typed: typed && index == 0)
            }
            return "{" + parts.joined(separator: ", ") + "}"
        case .struct(let fields):
            let parts = fields.map { $0.text(typed: typed) }
            return "(" + parts.joined(separator: ", ") + (fields.count == 1 ? ",)" : ")")
        case .variant(let inner):
            return "<" + inner.text(typed: true) + ">"
        }
    }

    private static func doubleText(_ v: Double) -> String {
        if v.isNaN { return "nan" }
        if v.isInfinite { return v < 0 ? "-inf" : "inf" }
        if v == v.rounded(), abs(v) < 1e15 { return "\(Int64(v)).0" }
        return "\(v)"
    }

    /// Quotes like GVariant: single quotes unless the text has one and no double quote.
    private static func quoted(_ s: String) -> String {
        let useDouble = s.contains("'") && !s.contains("\"")
        let quote: Character = useDouble ? "\"" : "'"
        var out = String(quote)
        for ch in s {
            switch ch {
            case "\\": out += "\\\\"
            case quote: out += "\\" + String(quote)
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default: out.append(ch)
            }
        }
        out.append(quote)
        return out
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
