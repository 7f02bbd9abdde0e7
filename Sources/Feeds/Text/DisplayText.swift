/// Turns stored text into something safe to show: visible control characters, one line when asked, sized.
///
/// Every renderer starts from text cleaned here, then applies its own sink's escaping on top.
public enum DisplayText {
    /// Makes control characters visible and harmless: C0 controls become their Unicode "control picture"
    /// (`\0` → `␀`, `\x1f` → `␟`, ESC → `␛`), DEL → `␡`, C1 controls → `�`, and the explicit bidirectional
    /// embeddings, overrides and isolates are dropped so right-to-left text cannot reorder what follows it.
    /// With `keepNewlines`, `\n` stays (and `\r\n` becomes `\n`); otherwise every line break and tab becomes a space.
    public static func clean(_ text: String, keepNewlines: Bool = false) -> String {
        var out = String.UnicodeScalarView()
        var previousCR = false
        for s in text.unicodeScalars {
            let v = s.value
            defer { previousCR = v == 0x0D }
            switch v {
            case 0x0A:
                if keepNewlines { if !previousCR { out.append("\n") } } else { out.append(" ") }
            case 0x0D:
                out.append(keepNewlines ? "\n" : " ")
            case 0x09, 0x0B, 0x0C, 0x85, 0x2028, 0x2029:
                out.append(keepNewlines && v != 0x09 ? "\n" : " ")
            case 0x00..<0x20:
                out.append(Unicode.Scalar(0x2400 + v)!)
            case 0x7F:
                out.append("\u{2421}")
            case 0x80..<0xA0:
                out.append("\u{FFFD}")
            case 0x202A...0x202E, 0x2066...0x2069:
                continue
            default:
                out.append(s)
            }
        }
        return String(out)
    }

    /// One clean line with runs of spaces collapsed and ends trimmed.
    public static func line(_ text: String) -> String {
        var out = ""
        var pendingSpace = false
        for c in clean(text) {
            if c == " " {
                pendingSpace = !out.isEmpty
            } else {
                if pendingSpace { out.append(" ") }
                pendingSpace = false
                out.append(c)
            }
        }
        return out
    }

    /// One clean line of at most `limit` characters; only the start of a long text is looked at.
    public static func line(_ text: String, limit: Int) -> String {
        truncate(line(String(text.prefix(limit * 4 + 16))), limit)
    }

    /// `text` cut to at most `limit` characters (grapheme clusters, so emoji and accents stay whole), ending in `…` when cut.
    public static func truncate(_ text: String, _ limit: Int) -> String {
        guard limit > 0 else { return "" }
        guard text.count > limit else { return text }
        var head = String(text.prefix(limit - 1))
        while head.last == " " { head.removeLast() }
        return head + "…"
    }

    /// `text` cut to at most `bytes` bytes of UTF-8 without splitting a character, ending in `…` when cut.
    public static func truncate(_ text: String, bytes: Int) -> String {
        guard text.utf8.count > bytes else { return text }
        var out = ""
        var used = 0
        let budget = bytes - 3
        for c in text {
            let n = c.utf8.count
            if used + n > budget { break }
            out.append(c)
            used += n
        }
        return out + "…"
    }

    /// Clean text wrapped at word boundaries into lines of at most `width` characters and at most `maxLines`
    /// lines, the last ending in `…` when text was left out; paragraph breaks are kept.
    public static func wrap(_ text: String, width: Int, maxLines: Int) -> [String] {
        guard width > 1, maxLines > 0 else { return [] }
        var lines: [String] = []
        let head = String(text.prefix(width * (maxLines + 1) * 2))
        paragraphs: for paragraph in clean(head, keepNewlines: true).split(separator: "\n") {
            var current = ""
            for word in paragraph.split(separator: " ") {
                var w = Substring(word)
                while w.count > width {
                    if !current.isEmpty { lines.append(current); current = "" }
                    lines.append(String(w.prefix(width)))
                    w = w.dropFirst(width)
                    if lines.count > maxLines { break paragraphs }
                }
                if current.isEmpty {
                    current = String(w)
                } else if current.count + 1 + w.count <= width {
                    current += " " + w
                } else {
                    lines.append(current)
                    current = String(w)
                }
                if lines.count > maxLines { break paragraphs }
            }
            if !current.isEmpty { lines.append(current) }
            if lines.count > maxLines { break }
        }
        guard lines.count > maxLines else { return lines }
        lines.removeLast(lines.count - maxLines)
        let last = lines.removeLast()
        lines.append(last.count < width ? last + "…" : String(last.prefix(width - 1)) + "…")
        return lines
    }
}
