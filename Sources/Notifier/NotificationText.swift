/// Making arbitrary text (memories, titles) safe for a notification: valid, bounded, and shown literally.
enum NotificationText {
    /// One line of plain text: control characters and line breaks become spaces, runs of spaces collapse,
    /// and the result is cut to `limit` characters with an ellipsis.
    static func line(_ text: String, limit: Int) -> String {
        var out = String.UnicodeScalarView()
        var lastWasSpace = false
        for scalar in text.unicodeScalars {
            let isSpace = scalar.properties.isWhitespace || isControl(scalar)
            if isSpace {
                if !lastWasSpace, !out.isEmpty { out.append(" ") }
                lastWasSpace = true
            } else if !isInvisibleHazard(scalar) {
                out.append(scalar)
                lastWasSpace = false
            }
        }
        return truncate(String(out).trimmingTrailingSpaces, limit: limit)
    }

    /// Cuts `text` to at most `limit` characters (grapheme clusters), ending with `…` when cut.
    static func truncate(_ text: String, limit: Int) -> String {
        guard text.count > limit else { return text }
        return String(text.prefix(max(0, limit - 1))).trimmingTrailingSpaces + "…"
    }

    /// C0 and C1 control characters and DEL.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
    }

    /// Characters that can reorder or hide the text around them (bidi overrides, noncharacters).
    static func isInvisibleHazard(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
            || scalar.value == 0xFEFF || scalar.properties.isNoncharacterCodePoint
    }
}

extension String {
    /// The string without trailing spaces.
    var trimmingTrailingSpaces: String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
