import EngramApp
import EngramCore
import Foundation
import MCP

/// The MCP resources: every memory as `engram://memory/ID` (the deep link every surface opens), listed newest first a
/// page at a time and read as Markdown. Reading a resource peeks: it does not strengthen the memory (an assistant
/// looking is not the person using it).
enum MCPResources {
    /// Memories per `resources/list` page.
    static let pageSize = 100
    /// MCP's "resource not found" error code.
    static let notFound = -32002

    /// One page of memories after `cursor` (an offset, as the previous page's `nextCursor` gave it).
    static func list(_ store: Store, cursor: String?) throws -> ListResources.Result {
        let offset: Int
        if let cursor {
            guard let n = Int(cursor), n >= 0 else { throw MCPError.invalidParams("the cursor “\(cursor.prefix(40))” is not one this server gave") }
            offset = n
        } else {
            offset = 0
        }
        let page = try store.recentMemories(limit: offset + pageSize + 1).dropFirst(offset)
        let shown = page.prefix(pageSize)
        let resources = shown.map { m in
            Resource(name: m.title, uri: DeepLink.memory(id: m.id).url,
                     description: "\(m.type.rawValue)\(m.tags.isEmpty ? "" : " · " + m.tags.map { "#\($0)" }.joined(separator: " ")) · \(ISODate.day(m.created))",
                     mimeType: "text/markdown")
        }
        return .init(resources: Array(resources), nextCursor: page.count > pageSize ? String(offset + pageSize) : nil)
    }

    /// The memory `uri` names, as Markdown with its facts.
    static func read(_ store: Store, decay: DecayModel, uri: String) throws -> ReadResource.Result {
        guard case .memory(let id)? = try? DeepLink.parse(uri) else {
            throw MCPError.invalidParams("“\(uri.prefix(80))” is not a memory's address; memories are engram://memory/ID")
        }
        guard let m = try store.memory(id: id) else {
            throw MCPError.serverError(code: notFound, message: "no memory with id '\(id.prefix(80))'")
        }
        let links = try store.links(of: m.id)
        var facts = ["type: \(m.type.rawValue)", "created: \(ISODate.format(m.created))", "last used: \(ISODate.format(m.lastReinforced))"]
        if !m.tags.isEmpty { facts.append("tags: " + m.tags.joined(separator: ", ")) }
        if m.pinned { facts.append("pinned: never fades") } else if let fades = decay.expiry(of: m) { facts.append("fades from search: \(ISODate.format(fades))") }
        if !links.isEmpty {
            facts.append("links: " + links.map { l in DeepLink.memory(id: l.fromID == m.id ? l.toID : l.fromID).url }.joined(separator: " "))
        }
        let text = m.content + "\n\n---\n" + facts.map { "- \($0)" }.joined(separator: "\n") + "\n"
        return .init(contents: [.text(text, uri: uri, mimeType: "text/markdown")])
    }
}
