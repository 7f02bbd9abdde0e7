import Foundation
import Yams

/// A Markdown note split into its YAML front matter and body, as Obsidian and Logseq vaults keep them.
public struct FrontMatterNote: Sendable {
    /// The front matter keys Engram understands; others are ignored.
    public var tags: [String] = []
    public var type: MemoryType?
    public var created: Date?
    public var context: String?
    public var pinned: Bool?
    /// The Markdown after the front matter.
    public var body: String

    /// Splits and parses `text`; malformed front matter is an error naming the file.
    public static func parse(_ text: String, origin: String) throws -> FrontMatterNote {
        let normalized = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        let lines = normalized.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first.map({ $0.trimmingCharacters(in: .whitespaces) == "---" }) == true,
              let end = lines.dropFirst().firstIndex(where: { let t = $0.trimmingCharacters(in: .whitespaces); return t == "---" || t == "..." }) else {
            return FrontMatterNote(body: normalized)
        }
        let yaml = lines[1..<end].joined(separator: "\n")
        let body = lines[(end + 1)...].joined(separator: "\n")
        var note = FrontMatterNote(body: body)
        let loaded: Any?
        do {
            loaded = try Yams.load(yaml: yaml)
        } catch {
            throw EngramError.invalidInput("\(origin): the front matter is not valid YAML (\(error))")
        }
        guard let map = loaded as? [String: Any] else { return note }
        func strings(_ v: Any?) -> [String] {
            switch v {
            case let s as String: return s.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
            case let a as [Any]: return a.compactMap { "\($0)" }
            case nil: return []
            case let o?: return ["\(o)"]
            }
        }
        note.tags = TextInput.normalizeTags(strings(map["tags"]) + strings(map["tag"]))
        if let t = map["type"] as? String { note.type = MemoryType(rawValue: t.lowercased()) }
        for key in ["created", "date"] where note.created == nil {
            switch map[key] {
            case let d as Date: note.created = d
            case let s as String: note.created = ISODate.parse(s)
            default: break
            }
        }
        if let c = map["context"] as? String, Identifier.isValid(c) { note.context = c }
        if let p = map["pinned"] as? Bool { note.pinned = p }
        return note
    }
}

/// Imports a folder of Markdown notes; each note becomes one memory with an id stable across re-imports.
public struct VaultImporter: Sendable {
    public let store: Store

    /// Creates an importer.
    public init(store: Store) { self.store = store }

    /// Imports every `*.md` below `folder` (hidden folders such as `.obsidian` skipped).
    public func importFolder(_ folder: String, skipInvalid: Bool = false, progress: ((Int, Int) -> Void)? = nil) throws -> ImportSummary {
        let root = URL(fileURLWithPath: folder).standardizedFileURL
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey, .contentModificationDateKey],
                                                          options: [.skipsHiddenFiles]) else {
            throw EngramError.io("cannot read the folder \(folder)")
        }
        var files: [URL] = []
        for case let url as URL in walker where url.pathExtension.lowercased() == "md" { files.append(url) }
        files.sort { $0.path < $1.path }
        return try importNotes(files, root: root, skipInvalid: skipInvalid, progress: progress)
    }

    /// Imports one Markdown note, as importing its folder would (the same id, so re-importing either updates it).
    public func importFile(_ file: String, progress: ((Int, Int) -> Void)? = nil) throws -> ImportSummary {
        let url = URL(fileURLWithPath: file).standardizedFileURL
        return try importNotes([url], root: url.deletingLastPathComponent(), skipInvalid: false, progress: progress)
    }

    /// Imports the notes at `files`, named by their paths relative to `root`.
    private func importNotes(_ files: [URL], root: URL, skipInvalid: Bool, progress: ((Int, Int) -> Void)?) throws -> ImportSummary {
        var memories: [Memory] = []
        var summary = ImportSummary()
        let now = store.clock()
        for url in files {
            let rel = String(url.standardizedFileURL.path.dropFirst(root.path.count)).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            do {
                guard let data = FileManager.default.contents(atPath: url.path) else { throw EngramError.io("\(rel): cannot read") }
                let text = try TextInput.decode(data, what: rel)
                let note = try FrontMatterNote.parse(text, origin: rel)
                var body = note.body.trimmingCharacters(in: .whitespacesAndNewlines)
                let name = url.deletingPathExtension().lastPathComponent
                if !body.hasPrefix("#") { body = "# \(name)" + (body.isEmpty ? "" : "\n\n" + body) }
                let mtime = (try? url.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? now
                let created = note.created ?? mtime
                memories.append(Memory(id: Identifier.stable(rel, prefix: "v"), content: body, type: note.type ?? .note,
                                       tags: note.tags, context: note.context, created: created, updated: max(created, mtime),
                                       pinned: note.pinned ?? false, source: "vault:\(rel)"))
            } catch {
                if !skipInvalid {
                    throw EngramError.invalidInput("nothing was imported: \(error)" + (files.count == 1 ? "." : ". Fix it, or pass --skip-invalid to import the rest."))
                }
                summary.skipped.append("\(error)")
            }
        }
        try store.upsertMemories(memories, progress: progress)
        summary.memories = memories.count
        return summary
    }
}
