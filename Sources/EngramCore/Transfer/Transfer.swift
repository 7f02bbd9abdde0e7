import Foundation

/// What an import did.
public struct ImportSummary: Sendable, Equatable {
    public var memories = 0
    public var links = 0
    public var curricula = 0
    public var topics = 0
    /// Lines or files left out, with the reason for each (only with `skipInvalid`).
    public var skipped: [String] = []

    /// Creates a summary.
    public init(memories: Int = 0, links: Int = 0, curricula: Int = 0, topics: Int = 0, skipped: [String] = []) {
        self.memories = memories
        self.links = links
        self.curricula = curricula
        self.topics = topics
        self.skipped = skipped
    }

    /// One line for people: "Imported 300 memories, 60 links, 2 curricula (19 topics)."
    public var sentence: String {
        var parts = ["\(memories) \(memories == 1 ? "memory" : "memories")"]
        if links > 0 { parts.append("\(links) link\(links == 1 ? "" : "s")") }
        if curricula > 0 { parts.append("\(curricula) curricul\(curricula == 1 ? "um" : "a") (\(topics) topics)") }
        var s = "Imported " + parts.joined(separator: ", ") + "."
        if !skipped.isEmpty { s += " Skipped \(skipped.count)." }
        return s
    }
}

/// Moves whole collections in and out of the store.
public struct Transfer: Sendable {
    public let store: Store

    /// Creates a transfer over `store`.
    public init(store: Store) { self.store = store }

    /// Writes everything as JSON Lines to `write` (one call per line, newline included).
    public func export(_ write: (String) throws -> Void) throws {
        for m in try store.allMemories() { try write(JSONLines.encode(.memory(m)) + "\n") }
        for l in try store.allLinks() { try write(JSONLines.encode(.link(l)) + "\n") }
        for c in try store.curricula() { try write(JSONLines.encode(.curriculum(c)) + "\n") }
        for t in try store.allTopics() { try write(JSONLines.encode(.topic(t)) + "\n") }
    }

    /// Imports JSON Lines text. Every line is checked first: by default one bad line imports nothing and names the line.
    public func importJSONLines(_ text: String, origin: String, skipInvalid: Bool = false, progress: ((Int, Int) -> Void)? = nil) throws -> ImportSummary {
        var summary = ImportSummary()
        var memories: [Memory] = [], keepHistory = Set<String>(), links: [MemoryLink] = [], curricula: [Curriculum] = [], topics: [Topic] = []
        let now = store.clock()
        var errors: [String] = []
        var lineNo = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNo += 1
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            if line.allSatisfy(\.isWhitespace) { continue }
            do {
                let (record, withoutDates) = try JSONLines.decodeLine(String(line), now: now)
                switch record {
                case .memory(let m):
                    memories.append(m)
                    if withoutDates { keepHistory.insert(m.id) }
                case .link(let l): links.append(l)
                case .curriculum(let c): curricula.append(c)
                case .topic(let t): topics.append(t)
                }
            } catch {
                errors.append("\(origin):\(lineNo): \(error)")
            }
        }
        if !errors.isEmpty && !skipInvalid {
            let more = errors.count > 5 ? "\n… and \(errors.count - 5) more" : ""
            throw EngramError.invalidInput("nothing was imported; \(errors.count) line\(errors.count == 1 ? " is" : "s are") not valid:\n" + errors.prefix(5).joined(separator: "\n") + more + "\nFix them, or pass --skip-invalid to import the rest.")
        }
        summary.skipped = errors
        try store.upsertMemories(memories, keepingHistoryOf: keepHistory, link: false, progress: progress)
        summary.memories = memories.count
        let topicsByCurriculum = Dictionary(grouping: topics, by: \.curriculumID)
        for c in curricula {
            try store.upsertCurriculum(c, topics: topicsByCurriculum[c.id] ?? [])
            summary.curricula += 1
            summary.topics += topicsByCurriculum[c.id]?.count ?? 0
        }
        let orphanTopics = topics.filter { t in !curricula.contains { $0.id == t.curriculumID } }
        for (cid, ts) in Dictionary(grouping: orphanTopics, by: \.curriculumID) {
            guard let c = try store.curriculum(id: cid) else {
                summary.skipped.append("\(ts.count) topics of unknown curriculum '\(cid)'")
                continue
            }
            let existing = try store.topics(of: cid).filter { e in !ts.contains { $0.id == e.id } }
            try store.upsertCurriculum(c, topics: existing + ts)
            summary.topics += ts.count
        }
        let skippedLinks = try store.importLinks(links)
        summary.links = links.count - skippedLinks
        if skippedLinks > 0 { summary.skipped.append("\(skippedLinks) links whose memories are missing") }
        return summary
    }
}
