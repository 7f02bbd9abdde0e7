import EngramCore
import Foundation

/// A memory's Markdown as Pango markup for a `GtkLabel`: headings, lists, quotes, code and links drawn, and every
/// character of the text itself escaped first, so markup written in a memory (`<b>`, `&amp;`, `<span …>`) shows as
/// written and nothing in it is ever interpreted. Links become `<a>` only for `http(s)://` and `engram://` targets;
/// anything else (`file:`, `javascript:`) stays text.
public enum MarkdownMarkup {
    /// Pango's five escapes (EngramRules' one escaper), after the control characters markup cannot hold (all but
    /// tab and newline: Pango refuses the whole text over one, and the label would show nothing).
    public static func escape(_ text: String) -> String {
        var kept = String.UnicodeScalarView()
        for ch in text.unicodeScalars where !((ch.value < 0x20 && ch != "\t" && ch != "\n") || ch.value == 0x7F) {
            kept.append(ch)
        }
        return Markup.escape(String(kept))
    }

    /// The longest text rendered as markup; beyond it the rest is shown plain (a 100 KB note stays quick to draw).
    public static let richLimit = 64 * 1024

    /// `markdown` as Pango markup.
    public static func render(_ markdown: String) -> String {
        var text = markdown
        var tail = ""
        if text.utf8.count > richLimit {
            let cut = text.utf8.index(text.utf8.startIndex, offsetBy: richLimit)
            let head = String(text[..<(cut.samePosition(in: text) ?? text.startIndex)])
            tail = escape(String(text.dropFirst(head.count)))
            text = head
        }
        var lines: [String] = []
        var inCode = false
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if raw.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inCode.toggle()
                continue
            }
            if inCode {
                lines.append("<tt>" + escape(raw) + "</tt>")
                continue
            }
            lines.append(block(raw))
        }
        return lines.joined(separator: "\n") + tail
    }

    static func block(_ line: String) -> String {
        let trimmed = line.drop { $0 == " " }
        if let level = heading(trimmed) {
            let body = inline(String(trimmed.dropFirst(level + 1)))
            let size = level == 1 ? "x-large" : level == 2 ? "large" : "medium"
            return "<span size=\"\(size)\" weight=\"bold\">\(body)</span>"
        }
        for bullet in ["- ", "* ", "+ "] where trimmed.hasPrefix(bullet) {
            let indent = String(repeating: "  ", count: (line.count - trimmed.count) / 2)
            return indent + "• " + inline(String(trimmed.dropFirst(2)))
        }
        if trimmed.hasPrefix("> ") {
            return "<i>" + inline(String(trimmed.dropFirst(2))) + "</i>"
        }
        return inline(line)
    }

    static func heading(_ line: Substring) -> Int? {
        let hashes = line.prefix { $0 == "#" }.count
        guard (1...6).contains(hashes), line.dropFirst(hashes).first == " " else { return nil }
        return hashes
    }

    /// Inline code, bold, italics and links, over escaped text.
    static func inline(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let next = rest.firstIndex(where: { $0 == "`" || $0 == "*" || $0 == "[" || $0 == "_" }) {
            out += escape(String(rest[..<next]))
            rest = rest[next...]
            if rest.hasPrefix("`"), let end = rest.dropFirst().firstIndex(of: "`") {
                out += "<tt>" + escape(String(rest[rest.index(after: rest.startIndex)..<end])) + "</tt>"
                rest = rest[rest.index(after: end)...]
            } else if rest.hasPrefix("**"), let end = rest.dropFirst(2).range(of: "**"), end.lowerBound > rest.index(rest.startIndex, offsetBy: 2) {
                out += "<b>" + escape(String(rest[rest.index(rest.startIndex, offsetBy: 2)..<end.lowerBound])) + "</b>"
                rest = rest[end.upperBound...]
            } else if rest.hasPrefix("["), let close = rest.firstIndex(of: "]"), rest[rest.index(after: close)...].hasPrefix("("),
                      let paren = rest[close...].firstIndex(of: ")") {
                let label = String(rest[rest.index(after: rest.startIndex)..<close])
                let target = String(rest[rest.index(close, offsetBy: 2)..<paren])
                if isSafeLink(target) {
                    out += "<a href=\"\(escape(target))\">" + escape(label) + "</a>"
                } else {
                    out += escape(String(rest[...paren]))
                }
                rest = rest[rest.index(after: paren)...]
            } else {
                out += escape(String(rest.first!))
                rest = rest.dropFirst()
            }
        }
        return out + escape(String(rest))
    }

    /// Whether a link target may be followed: the web and Engram's own links, nothing that runs or reads files.
    public static func isSafeLink(_ target: String) -> Bool {
        let lower = target.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://") || lower.hasPrefix("engram://") else { return false }
        return !target.unicodeScalars.contains { $0.value < 0x21 || $0.value == 0x7F }
    }
}
