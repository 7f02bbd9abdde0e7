/// A short excerpt of a hit's text with the matched words marked, unescaped so each sink can escape for itself.
public struct Snippet: Sendable, Equatable {
    /// A run of snippet text, highlighted when it matched the query.
    public struct Segment: Sendable, Equatable {
        /// The text of the run, unescaped.
        public var text: String
        /// True when the run matched the query.
        public var highlighted: Bool

        /// Creates a run.
        public init(text: String, highlighted: Bool) {
            self.text = text
            self.highlighted = highlighted
        }
    }

    /// The runs of the snippet, in order.
    public var segments: [Segment]

    /// The snippet without any highlighting.
    public var plainText: String { segments.map(\.text).joined() }

    /// Creates a snippet from runs.
    public init(segments: [Segment]) {
        self.segments = segments
    }

    /// Renders the snippet for one sink: each run escaped by `escape`, highlighted runs wrapped in `open` and `close`.
    public func rendered(open: String, close: String, escape: (String) -> String) -> String {
        segments.map { $0.highlighted ? open + escape($0.text) + close : escape($0.text) }.joined()
    }
}

extension Snippet {
    /// Private markers the shim puts around highlighted words (STX and ETX; stripped from indexed text).
    static let highlightStart: Unicode.Scalar = "\u{02}"
    static let highlightEnd: Unicode.Scalar = "\u{03}"

    /// Parses MSet::snippet output: splits on the markers, unescapes HTML entities and folds whitespace to single spaces.
    init(shimOutput: String) {
        var segments: [Segment] = []
        var current = String.UnicodeScalarView()
        var highlighted = false
        var pendingSpace = false
        func flush() {
            guard !current.isEmpty else { return }
            let text = Snippet.unescapeHTML(String(current))
            if let last = segments.last, last.highlighted == highlighted {
                segments[segments.count - 1].text += text
            } else {
                segments.append(Segment(text: text, highlighted: highlighted))
            }
            current = String.UnicodeScalarView()
        }
        for scalar in shimOutput.unicodeScalars {
            switch scalar {
            case Snippet.highlightStart, Snippet.highlightEnd:
                // A space before a marker belongs to the run it ends, not the next one.
                if pendingSpace { current.append(" ") }
                pendingSpace = false
                flush()
                highlighted = scalar == Snippet.highlightStart
            case _ where Snippet.isWhitespace(scalar):
                // Folded to one space, dropped at the very start and end.
                pendingSpace = !segments.isEmpty || !current.isEmpty
            default:
                if pendingSpace { current.append(" ") }
                pendingSpace = false
                current.append(scalar)
            }
        }
        flush()
        self.init(segments: segments)
    }

    /// Whitespace test with an ASCII fast path.
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar == " " || (scalar.value >= 0x09 && scalar.value <= 0x0D) }
        return scalar.properties.isWhitespace
    }

    /// Decodes the entities MSet::snippet writes (&amp; &lt; &gt; &quot; &apos; and numeric ones).
    static func unescapeHTML(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        var out = ""
        var rest = text[...]
        while let ampersand = rest.firstIndex(of: "&") {
            out += rest[..<ampersand]
            let afterAmpersand = rest.index(after: ampersand)
            guard let semicolon = rest[afterAmpersand...].prefix(12).firstIndex(of: ";") else {
                out += "&"
                rest = rest[afterAmpersand...]
                continue
            }
            let entity = rest[afterAmpersand..<semicolon]
            if let decoded = decodeEntity(entity) {
                out += decoded
                rest = rest[rest.index(after: semicolon)...]
            } else {
                out += "&"
                rest = rest[afterAmpersand...]
            }
        }
        out += rest
        return out
    }

    /// Decodes one entity name (without & and ;), or nil if unknown.
    private static func decodeEntity(_ entity: Substring) -> String? {
        switch entity {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            guard entity.hasPrefix("#") else { return nil }
            let digits = entity.dropFirst()
            let value = digits.hasPrefix("x") || digits.hasPrefix("X")
                ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            return value.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
    }
}
