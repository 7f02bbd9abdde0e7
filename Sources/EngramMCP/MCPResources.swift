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

    /// One page of memories after `cursor`, as the previous page's `nextCursor` gave it: an opaque mark of where that
    /// page ended, so a capture between two pages shifts nothing (it is newer than every page given).
    static func list(_ store: Store, cursor: String?) throws -> ListResources.Result {
        let page = try store.memoryPage(after: try cursor.map(place(cursor:)), limit: pageSize)
        let resources = page.memories.map { m in
            Resource(name: m.title, uri: DeepLink.memory(id: m.id).url,
                     description: "\(m.type.rawValue)\(m.tags.isEmpty ? "" : " · " + m.tags.map { "#\($0)" }.joined(separator: " ")) · \(ISODate.day(m.created))",
                     mimeType: "text/markdown")
        }
        return .init(resources: resources, nextCursor: page.next.map(cursor(place:)))
    }

    /// A page's end as a cursor: base64url of a version mark, the stored creation time and the id.
    static func cursor(place: MemoryPlace) -> String {
        Data("m1\n\(place.created)\n\(place.id)".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The place a cursor names; anything this server did not give is `invalidParams` (MCP's rule for cursors).
    static func place(cursor: String) throws -> MemoryPlace {
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        let parts = cursor.utf8.count <= 600 ? Data(base64Encoded: base64).flatMap { String(data: $0, encoding: .utf8) }?
            .split(separator: "\n", omittingEmptySubsequences: false) ?? [] : []
        guard parts.count == 3, parts[0] == "m1", !parts[1].isEmpty, !parts[2].isEmpty else {
            throw MCPError.invalidParams("the cursor “\(cursor.prefix(40))” is not one this server gave; list from the start without one")
        }
        return MemoryPlace(created: String(parts[1]), id: String(parts[2]))
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
