import EngramCore
import Foundation
import EngramApp
import Indexer

/// One search result as the desktop shows it, ready for GNOME Shell's metas and KRunner's matches.
public struct ResultItem: Sendable, Equatable {
    /// The result's id on the bus: its `engram://` link, e.g. `engram://memory/k3x9`.
    public var id: String
    /// What the result is, or nil for an id that names nothing in the collection.
    public var kind: IndexKind?
    /// The first line, as the result's name.
    public var title: String
    /// One line under the name: the matched words in context, or type, tags and date.
    public var description: String
    /// A freedesktop icon name.
    public var iconName: String
    /// What copying the result gives: a memory's whole text, or the title.
    public var clipboardText: String
    /// Whether the memory is pinned (never fades).
    public var pinned: Bool
    /// Xapian's relevance, 0…1.
    public var relevance: Double
    /// Found by meaning alone (none of the typed words is in it).
    public var byMeaning = false

    /// The longest description sent, in characters.
    static let descriptionLimit = 140

    /// KRunner's category: Memories, Curricula or Topics.
    public var category: String {
        switch kind {
        case .memory, nil: "Memories"
        case .curriculum: "Curricula"
        case .topic: "Topics"
        }
    }

    /// GNOME Shell's icon: a serialized themed GIcon with a symbolic fallback.
    public var gicon: GIcon { GIcon.themed([iconName, iconName + "-symbolic"]) }

    /// Whether the id named something when the item was made.
    public var isKnown: Bool { kind != nil }
}

extension ResultItem {
    /// The icon for a kind of item (memories use their type's icon).
    static func iconName(kind: IndexKind, type: String?) -> String {
        switch kind {
        case .memory: (type.flatMap(MemoryType.init(rawValue:)) ?? .note).iconName
        case .curriculum: "x-office-address-book"
        case .topic: "view-list-bullet"
        }
    }

    /// The item for a search hit; `content` and `pinned` are a memory's full text and pin, `curriculumTitle` a topic's parent.
    static func from(hit: SearchHit, content: String?, pinned: Bool, curriculumTitle: String?) -> ResultItem {
        let link = hit.link
        let title = oneLine(hit.title)
        var description: String
        if let snippet = beyondTitle(oneLine(hit.snippet.plainText), title: title) {
            description = hit.kind == .topic ? curriculumTitle.map { $0 + " · " + snippet } ?? snippet : snippet
        } else {
            description = summary(kind: hit.kind, type: hit.type, tags: hit.tags, created: hit.created, curriculumTitle: curriculumTitle)
        }
        // Found by meaning alone: none of the typed words is in it, so say why it is shown.
        if hit.byMeaning { description = "By meaning · " + description }
        var item = ResultItem(id: link.url, kind: hit.kind, title: title, description: truncate(description),
                              iconName: iconName(kind: hit.kind, type: hit.type),
                              clipboardText: content ?? hit.title, pinned: pinned,
                              relevance: hit.relevance)
        item.byMeaning = hit.byMeaning
        return item
    }

    /// The item for a memory looked up by id (when GNOME asks for metas the last search did not return).
    static func from(memory m: Memory) -> ResultItem {
        ResultItem(id: DeepLink.memory(id: m.id).url, kind: .memory, title: oneLine(m.title),
                   description: truncate(summary(kind: .memory, type: m.type.rawValue, tags: m.tags, created: m.created, curriculumTitle: nil)),
                   iconName: m.type.iconName, clipboardText: m.content, pinned: m.pinned, relevance: 0)
    }

    /// The item for a curriculum looked up by id.
    static func from(curriculum c: Curriculum, topics: Int) -> ResultItem {
        ResultItem(id: DeepLink.curriculum(id: c.id).url, kind: .curriculum, title: oneLine(c.title),
                   description: truncate(c.description.isEmpty ? "Curriculum · \(topics) topics" : oneLine(c.description)),
                   iconName: iconName(kind: .curriculum, type: nil), clipboardText: c.title, pinned: false, relevance: 0)
    }

    /// The item for a topic looked up by id.
    static func from(topic t: Topic, curriculumTitle: String?) -> ResultItem {
        ResultItem(id: DeepLink.topic(id: t.id).url, kind: .topic, title: oneLine(t.title),
                   description: truncate([curriculumTitle, "topic \(t.position)", t.done ? "done" : nil].compactMap { $0 }.joined(separator: " · ")),
                   iconName: iconName(kind: .topic, type: nil), clipboardText: t.title, pinned: false, relevance: 0)
    }

    /// The placeholder for an id that names nothing: GNOME Shell drops a whole section if any meta is missing.
    static func unknown(id: String) -> ResultItem {
        let isLink = (try? DeepLink.parse(id)) != nil
        return ResultItem(id: id, kind: nil, title: isLink ? "No longer in Engram" : "Not an Engram result",
                          description: isLink ? "It was forgotten or changed since this search; search again."
                                              : "Engram did not return this id; search again.",
                          iconName: "dialog-question", clipboardText: "", pinned: false, relevance: 0)
    }

    /// The part of a one-line snippet the title does not already say, or nil when it says nothing more.
    ///
    /// Xapian's snippet is a window on the whole text, whose first line is the title: it often starts with the title
    /// (`Weekend sourdough schedule…`) or part of it (`…sourdough schedule that works for me: 1. Fri…`), and for a
    /// one-line memory lies wholly inside it. Shown under the title, that would say the name twice; so the words up to
    /// the title's end are dropped, and a snippet inside the title gives way to the summary.
    static func beyondTitle(_ snippet: String, title: String) -> String? {
        let ellipsis: Character = "…"
        var core = Substring(snippet)
        if core.first == ellipsis { core = core.dropFirst() }
        let cut = core.last == ellipsis
        if cut { core = core.dropLast() }
        core = core.drop { $0.isWhitespace }
        while core.last?.isWhitespace == true { core = core.dropLast() }
        guard !core.isEmpty else { return nil }
        guard !title.isEmpty else { return snippet }
        // Compared as UTF-8 bytes (both are cut from the same text): Foundation's `contains` went through NSString,
        // 1% of the daemon's CPU per GNOME Shell round trip.
        if title.utf8.count >= core.utf8.count, Array(title.utf8).withUnsafeBufferPointer({ t in
            Array(core.utf8).withUnsafeBufferPointer { c in
                (0...(t.count - c.count)).contains { start in memcmp(t.baseAddress! + start, c.baseAddress!, c.count) == 0 }
            }
        }) { return nil }
        // The snippet starts in the title and runs past its end: the longest end of the title (from a word's start)
        // that the snippet starts with. Only the last `core.count` characters of the title can be such an end.
        let chars = Array(title)
        for start in max(0, chars.count - core.count)..<chars.count where start == 0 || chars[start - 1].isWhitespace {
            let end = String(chars[start...])
            guard end.count >= min(chars.count, 8), core.hasPrefix(end) else { continue }
            let rest = core.dropFirst(end.count).drop { $0.isWhitespace }
            return rest.isEmpty ? nil : String(rest) + (cut ? "…" : "")
        }
        return snippet
    }

    /// "Idea · cooking, bread · 2026-03-04", or "Curriculum" / "Topic in …".
    static func summary(kind: IndexKind, type: String?, tags: [String], created: Date, curriculumTitle: String?) -> String {
        switch kind {
        case .memory:
            var parts = [(type ?? "note").capitalized]
            if !tags.isEmpty { parts.append(tags.joined(separator: ", ")) }
            parts.append(day(created))
            return parts.joined(separator: " · ")
        case .curriculum:
            return "Curriculum"
        case .topic:
            return curriculumTitle.map { "Topic in \($0)" } ?? "Topic"
        }
    }

    /// Text folded to one line: runs of whitespace become one space, control characters go.
    static func oneLine(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var space = false
        for scalar in text.unicodeScalars {
            let v = scalar.value
            // ASCII decides without Unicode's property tables (most text, on every keystroke's metas).
            if v < 0x80 ? (v <= 0x20 || v == 0x7F) : scalar.properties.isWhitespace {
                space = !out.isEmpty
                continue
            }
            if space { out.append(0x20) }
            space = false
            if v < 0x80 { out.append(UInt8(v)) } else { UTF8.encode(scalar) { out.append($0) } }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Text cut to `descriptionLimit` characters with an ellipsis.
    static func truncate(_ text: String) -> String {
        text.count <= descriptionLimit ? text : String(text.prefix(descriptionLimit - 1)) + "…"
    }

    /// A local date like 2026-03-04.
    static func day(_ date: Date) -> String {
        var tm = tm()
        var t = time_t(date.timeIntervalSince1970)
        localtime_r(&t, &tm)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(tm.tm_year + 1900)-\(two(tm.tm_mon + 1))-\(two(tm.tm_mday))"

    }
}
