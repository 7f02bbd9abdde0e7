/// A memory with its text, for the feeds that show it.
public struct FeedMemory: Sendable, Equatable {
    public var facts: MemoryFacts
    /// The stored text, decoded leniently (invalid UTF-8 becomes U+FFFD).
    public var content: String

    /// The first non-empty line, trimmed, without leading `#`: what lists show (as `Memory.title` does).
    public let title: String

    /// Creates a memory.
    public init(facts: MemoryFacts, content: String) {
        self.facts = facts
        self.content = content
        title = Self.title(of: content)
    }

    /// The memory's id.
    public var id: String { facts.id }

    /// The most characters of a title kept; a longer first line is cut (feeds show far less).
    static let titleLimit = 4096

    /// The title rule shared with the core model, over at most `titleLimit` characters of the first line.
    static func title(of content: String) -> String {
        let head = content.prefix(titleLimit)
        var line = firstNonBlankLine(head)
        if line.allSatisfy(\.isWhitespace) && head.endIndex != content.endIndex { line = firstNonBlankLine(content[...]) }
        var t = trimBlanks(line.prefix(titleLimit))
        while t.hasPrefix("#") { t.removeFirst() }
        return String(trimBlanks(Substring(t)))
    }

    /// The first line holding more than whitespace (or the whole text), found without splitting all of it.
    private static func firstNonBlankLine(_ content: Substring) -> Substring {
        var start = content.startIndex
        while start < content.endIndex {
            let end = content[start...].firstIndex(where: \.isNewline) ?? content.endIndex
            let line = content[start..<end]
            if !line.allSatisfy(\.isWhitespace) { return line }
            start = end < content.endIndex ? content.index(after: end) : end
        }
        return content
    }

    /// Trims spaces and tabs (Unicode space separators), as `CharacterSet.whitespaces` does.
    private static func trimBlanks(_ s: Substring) -> String {
        func blank(_ c: Character) -> Bool {
            c.unicodeScalars.count == 1 && (c == "\t" || c.unicodeScalars.first!.properties.generalCategory == .spaceSeparator)
        }
        guard let start = s.firstIndex(where: { !blank($0) }) else { return "" }
        let end = s.lastIndex(where: { !blank($0) })!
        return String(s[start...end])
    }
}
