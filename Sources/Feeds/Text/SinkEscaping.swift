/// The escaping each sink needs on top of `DisplayText.clean`; each renderer uses exactly one of these.
public enum SinkEscaping {
    /// Pango/XML markup (Waybar, notification bodies): `& < > " '` become entities (`Markup.escape`).
    public static func pango(_ text: String) -> String { Markup.escape(text) }

    /// Conky's parsed output (`execp`, `execpi`, `catp`): `$` → `$$` and `#` → `\#`, so `${exec …}` stays text.
    public static func conkyParsed(_ text: String) -> String {
        var out = ""
        for c in text.unicodeScalars {
            switch c {
            case "$": out += "$$"
            case "#": out += "\\#"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// polybar: `%{` starts a formatting or action tag and has no escape, so a zero-width space goes between.
    public static func polybar(_ text: String) -> String {
        var out = ""
        var previousPercent = false
        for c in text.unicodeScalars {
            if c == "{" && previousPercent { out += "\u{200B}" }
            out.unicodeScalars.append(c)
            previousPercent = c == "%"
        }
        return out
    }

    /// A JSON string literal (quotes included): `"` `\` and every control character escaped, so one value stays on one line.
    public static func jsonString(_ text: String) -> String {
        var out = "\""
        for c in text.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if c.value < 0x20 || c.value == 0x7F {
                    let hex = String(c.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(c)
                }
            }
        }
        return out + "\""
    }
}
