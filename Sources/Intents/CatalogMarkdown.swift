import Foundation

extension IntentCatalog {
    /// The table of intents and phrases in docs/intents-and-voice.md, generated from the catalog (a test keeps that file
    /// equal to it).
    public static func markdownTable() -> String {
        func cell(_ s: String) -> String { s.replacingOccurrences(of: "|", with: "\\|") }
        var lines = ["| intent | what it does | parameters (default) | phrases |", "|---|---|---|---|"]
        for d in all {
            let params = d.parameters.map { p in "`\(p.name)`" + (p.defaultValue.map { $0.isEmpty ? "" : " (\($0))" } ?? "") }
                .joined(separator: ", ")
            let phrases = d.phrases.map { "“\($0.template)”" }.joined(separator: ", ")
            lines.append("| \(d.name.rawValue) | \(cell(d.summary)) | \(cell(params.isEmpty ? "—" : params)) | \(cell(phrases)) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
