/// Escaping for Pango/XML markup, the one escaper for bars (Waybar) and notification bodies.
public enum Markup {
    /// `text` with `&`, `<` and `>` as entities, and with `quotes`, `"` and `'` as well (`&quot;`, `&#39;`).
    ///
    /// Notification bodies escape only the three the specification names (GNOME Shell shows `&#39;` literally);
    /// Waybar's Pango fields escape all five.
    public static func escape(_ text: String, quotes: Bool = true) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where quotes: out += "&quot;"
            case "'" where quotes: out += "&#39;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
