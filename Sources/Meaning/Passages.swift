import Foundation

/// A long text cut into passages the model can read whole, each embedded on its own, so that a long note (an
/// imported Markdown page of many screens) is found by meaning for what its middle says, not only its first 2 KB.
///
/// e5 reads at most 512 tokens: about 2 KB of English. A text that fits is one passage, itself. A longer one is cut
/// into passages of at most `maxBytes`: before the first Markdown heading in the window, so a section in the middle
/// of a page is read on its own, else after the last paragraph that ends in it, so paragraphs stay whole;
/// failing that on a line or word, the next passage then starting `overlapBytes` (about 50 tokens) before the
/// previous one ended, as the retrieval systems this follows cut theirs (512 tokens, 50 of overlap). Every
/// passage after the first starts with the text's first line (its title, at most `titleBytes`), which says what
/// the passage belongs to. At most `maxPassages` are made (some 120 KB of text); the rest of a longer text is found
/// by its words only.
public enum Passages {
    public static let maxBytes = 2048
    public static let overlapBytes = 256
    public static let titleBytes = 120
    public static let maxPassages = 64

    /// Whether a text is cut into more than one passage.
    public static func isLong(_ text: String) -> Bool { text.utf8.count > maxBytes }

    /// The passages of a text: the text itself when it fits, else the first `maxBytes` (as a text that fits would be
    /// read) and the passages after it.
    public static func split(_ text: String) -> [String] {
        let utf8 = Array(text.utf8)
        guard utf8.count > maxBytes else { return [text] }
        let titleEnd = utf8.firstIndex(of: 0x0A) ?? utf8.count
        let title = titleEnd <= titleBytes ? String(decoding: utf8[..<titleEnd], as: UTF8.self) : ""
        let lead = title.isEmpty ? 0 : title.utf8.count + 1
        var passages: [String] = []
        var start = 0
        while start < utf8.count, passages.count < maxPassages {
            let budget = passages.isEmpty ? maxBytes : maxBytes - lead
            var end = min(start + budget, utf8.count)
            var atSection = false
            if end < utf8.count {
                if let section = sectionStart(utf8, before: end, after: start + minSectionBytes) {
                    end = section
                    atSection = true
                } else {
                    end = boundary(utf8, before: end, after: start + budget / 2)
                }
            }
            let body = String(decoding: utf8[start..<end], as: UTF8.self)
            passages.append(passages.isEmpty || title.isEmpty ? body : title + "\n" + body)
            guard end < utf8.count else { break }
            // A section is whole in its passage, so the next starts where it ends. Otherwise the next passage starts
            // about `overlapBytes` back, on a word.
            var next = atSection ? end : max(end - overlapBytes, start + 1)
            while next < end, !isSpace(utf8[next - 1]) { next += 1 }
            while next < utf8.count, isSpace(utf8[next]) { next += 1 }
            while next < utf8.count, isContinuation(utf8[next]) { next += 1 }
            start = next
        }
        return passages
    }

    /// A passage ending at a section is at least this long: a heading or a blank line closer to the passage's
    /// start is not worth a pass of its own.
    static let minSectionBytes = 256

    /// Where to end a passage at a section, if one starts inside the window after `floor`: at the first Markdown
    /// heading (a new subject: "## The car" between two sections about the garden gets passages of its own), else
    /// at the last paragraph (the line after a blank one), so that paragraphs stay whole.
    static func sectionStart(_ utf8: [UInt8], before limit: Int, after floor: Int) -> Int? {
        var i = floor + 1
        while i < limit {
            if utf8[i - 1] == 0x0A, utf8[i] == 0x23 { return i }
            i += 1
        }
        i = limit
        while i > floor {
            if i >= 2, utf8[i - 1] == 0x0A, utf8[i - 2] == 0x0A { return i }
            i -= 1
        }
        return nil
    }

    /// The best place to end a passage at or before `limit` (not before `floor`): after a line break, else after a
    /// space, else on a character boundary.
    static func boundary(_ utf8: [UInt8], before limit: Int, after floor: Int) -> Int {
        var i = limit
        while i > floor, utf8[i - 1] != 0x0A { i -= 1 }
        if i > floor { return i }
        i = limit
        while i > floor, !isSpace(utf8[i - 1]) { i -= 1 }
        if i > floor { return i }
        i = limit
        while i > 0, isContinuation(utf8[i]) { i -= 1 }
        return i
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D }
    private static func isContinuation(_ b: UInt8) -> Bool { b & 0xC0 == 0x80 }
}
