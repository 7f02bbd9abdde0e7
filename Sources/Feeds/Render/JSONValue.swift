/// A JSON value with keys kept in the order written, encoded on one line.
indirect enum JSONValue: Equatable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    /// A string or null.
    static func optional(_ s: String?) -> JSONValue { s.map { .string($0) } ?? .null }

    /// The compact encoding.
    var encoded: String {
        var out = ""
        write(to: &out)
        return out
    }

    func write(to out: inout String) {
        switch self {
        case .string(let s): out += SinkEscaping.jsonString(s)
        case .int(let i): out += String(i)
        case .double(let d): out += d.isFinite ? String(describing: (d * 1000).rounded() / 1000) : "null"
        case .bool(let b): out += b ? "true" : "false"
        case .null: out += "null"
        case .array(let items):
            out += "["
            for (n, v) in items.enumerated() {
                if n > 0 { out += "," }
                v.write(to: &out)
            }
            out += "]"
        case .object(let fields):
            out += "{"
            for (n, (k, v)) in fields.enumerated() {
                if n > 0 { out += "," }
                out += SinkEscaping.jsonString(k) + ":"
                v.write(to: &out)
            }
            out += "}"
        }
    }

    static func == (a: JSONValue, b: JSONValue) -> Bool { a.encoded == b.encoded }
}
