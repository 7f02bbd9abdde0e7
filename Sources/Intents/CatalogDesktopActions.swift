import Foundation

extension IntentDefinition {
    /// The desktop entry action id: the intent's name in kebab case ("DailyReview" → "daily-review").
    public var desktopActionID: String {
        var out = ""
        for ch in name.rawValue {
            if ch.isUppercase, !out.isEmpty { out.append("-") }
            out.append(Character(ch.lowercased()))
        }
        return out
    }
}

extension IntentCatalog {
    /// The intents a desktop entry offers as actions (right-click on the launcher icon): those that need no argument.
    public static var desktopActionIntents: [IntentDefinition] { all.filter { $0.parameters.allSatisfy { !$0.isRequired } } }

    /// The desktop entry's `Actions=` value and `[Desktop Action …]` groups, generated from the catalog
    /// (`engram ask --list --desktop-actions`); `bindir` is where `engram` is installed (`@bindir@` in the template).
    public static func desktopActions(bindir: String = "@bindir@") -> String {
        let defs = desktopActionIntents
        var lines = ["Actions=" + defs.map { $0.desktopActionID + ";" }.joined()]
        for d in defs {
            lines += ["", "[Desktop Action \(d.desktopActionID)]", "Name=\(d.title)",
                      "Exec=\(bindir)/engram-app \(IntentInvocation(d.name).commandID)"]
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
