import EngramCore
import Foundation

/// The link graph around one memory, to a depth.
public struct ConnectionGraph: Sendable, Codable, Equatable {
    /// A memory in the graph.
    public struct Node: Sendable, Codable, Equatable {
        public var id: String
        public var title: String
        public var type: String
        /// Links away from the centre (0 for the centre).
        public var depth: Int
    }

    /// A link between two memories in the graph.
    public struct Edge: Sendable, Codable, Equatable {
        public var from: String
        public var to: String
        public var origin: String
        public var weight: Double
    }

    public var center: String
    public var depth: Int
    /// Nodes in breadth-first order (by depth, then strongest link, then id).
    public var nodes: [Node]
    /// Edges among the nodes, each once, sorted.
    public var edges: [Edge]

    /// Walks the links from `center` up to `depth` links away; memories outside the active context are left out,
    /// and the sleep context shows only the centre.
    public static func build(store: Store, center: String, depth: Int) throws -> ConnectionGraph {
        let root = try store.requireMemory(id: center)
        let context = try store.activeContext()
        var nodes = [Node(id: root.id, title: root.title, type: root.type.rawValue, depth: 0)]
        var seen: Set<String> = [root.id]
        var edges: [String: Edge] = [:]
        var frontier = [root.id]
        let maxDepth = max(0, min(depth, 6))
        if context != "sleep" {
            for d in 1...max(1, maxDepth) where maxDepth > 0 {
                var next: [(String, Double)] = []
                for id in frontier {
                    for l in try store.links(of: id) {
                        let other = l.other(than: id)
                        guard let m = try store.memory(id: other) else { continue }
                        if let context, let mc = m.context, mc != context { continue }
                        edges["\(l.fromID)|\(l.toID)"] = Edge(from: l.fromID, to: l.toID, origin: l.origin.rawValue, weight: l.weight)
                        if seen.insert(other).inserted { next.append((other, l.weight)) }
                    }
                }
                next.sort { ($0.1, $1.0) > ($1.1, $0.0) }
                for (id, _) in next {
                    let m = try store.requireMemory(id: id)
                    nodes.append(Node(id: id, title: m.title, type: m.type.rawValue, depth: d))
                }
                frontier = next.map(\.0)
                if frontier.isEmpty { break }
            }
        }
        let inGraph = Set(nodes.map(\.id))
        let kept = edges.values.filter { inGraph.contains($0.from) && inGraph.contains($0.to) }
            .sorted { ($0.from, $0.to) < ($1.from, $1.to) }
        return ConnectionGraph(center: root.id, depth: maxDepth, nodes: nodes, edges: kept)
    }

    /// The graph as indented text: each memory under the one it was reached from.
    public func text(width: Int = 72) -> String {
        var parent: [String: String] = [:]
        let depthOf = Dictionary(nodes.map { ($0.id, $0.depth) }, uniquingKeysWith: { a, _ in a })
        for n in nodes where n.depth > 0 {
            let candidates = edges.compactMap { e -> String? in
                let other = e.from == n.id ? e.to : (e.to == n.id ? e.from : nil)
                guard let o = other, depthOf[o] == n.depth - 1 else { return nil }
                return o
            }
            parent[n.id] = candidates.first
        }
        var lines: [String] = []
        func title(_ n: Node) -> String {
            let t = n.title.count > width ? String(n.title.prefix(width - 1)) + "…" : n.title
            return "\(n.id) (\(n.type)) \(t)"
        }
        func walk(_ n: Node, prefix: String) {
            let children = nodes.filter { parent[$0.id] == n.id }
            for (i, c) in children.enumerated() {
                let last = i == children.count - 1
                lines.append(prefix + (last ? "└─ " : "├─ ") + title(c))
                walk(c, prefix: prefix + (last ? "   " : "│  "))
            }
        }
        lines.append(title(nodes[0]))
        walk(nodes[0], prefix: "")
        let extra = edges.count - (nodes.count - 1)
        if extra > 0 { lines.append("(\(extra) more link\(extra == 1 ? "" : "s") between these memories)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph in Graphviz DOT; labels are escaped so no memory text can break out of its string.
    public func dot() -> String {
        func q(_ s: String) -> String {
            var out = "\""
            for ch in s.unicodeScalars {
                switch ch {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += " "
                default: out.unicodeScalars.append(ch)
                }
            }
            return out + "\""
        }
        var lines = ["graph engram {", "  graph [overlap=false, rankdir=LR];", "  node [shape=box, style=\"rounded,filled\", fontname=\"Sans\", fillcolor=\"#eef2f7\"];"]
        for n in nodes {
            let label = n.title.count > 40 ? String(n.title.prefix(39)) + "…" : n.title
            let extra = n.depth == 0 ? ", fillcolor=\"#ffd479\", penwidth=2" : ""
            lines.append("  \(q(n.id)) [label=\(q(label + "\n" + n.id)), tooltip=\(q(n.type))\(extra)];")
        }
        for e in edges {
            lines.append("  \(q(e.from)) -- \(q(e.to)) [penwidth=\(e.weight >= 1 ? 2 : 1)\(e.origin == "auto" ? ", style=dashed" : "")];")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Renders DOT to SVG or PNG with Graphviz's `dot`, when it is installed.
public enum GraphRenderer {
    /// The path of `dot`, if installed.
    public static var dotPath: String? { Spawner.find("dot") }

    /// Writes `dot` rendered as `format` (svg or png) to `path`.
    public static func render(_ dot: String, format: String, to path: String) throws {
        guard ["svg", "png"].contains(format) else { throw EngramError.invalidInput("a picture is svg or png, not \(format)") }
        guard let exe = dotPath else {
            throw EngramError.notFound("Graphviz is not installed, so no picture; `apt install graphviz`, or use --format dot or json")
        }
        let r = try Executables.run(exe, ["-T\(format)", "-o", path], stdin: Data(dot.utf8))
        guard r.status == 0 else { throw EngramError.io("dot failed (\(r.status)): \(r.stderr.prefix(300))") }
    }
}
