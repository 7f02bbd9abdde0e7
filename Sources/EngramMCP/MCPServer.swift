import EngramApp
import EngramClient
import EngramCore
import Foundation
import Intents
import MCP

/// `engram mcp`: Engram for assistants over the Model Context Protocol, on standard input and output.
///
/// Tools are the intent catalog's (`MCPTools`), resources the memories (`MCPResources`). Calls run one at a time,
/// through `IntentRunner` as the CLI's `engram ask` does, and a call that changed something makes it searchable by the
/// rule every command follows (`IndexClient`: here when the index writer is free, else through the daemon). Nothing
/// here writes but through the store and its outbox; nothing listens on a network.
public enum EngramMCPServer {
    /// What the server tells an assistant about itself.
    static let instructions = """
        Engram keeps a person's memories (notes, ideas, tasks, quotes, learnings, linked to each other) and their \
        learning curricula. Search with query_memory before answering from memory; store with store_memory only what \
        the person asked to keep (pass a requestId so a retry never stores twice). Memories are resources at \
        engram://memory/ID. forget_memory erases for good and needs confirm = true: never call it unless the person \
        asked to forget that memory.
        """

    /// The version the server reports (the `engram` command's).
    public static let version = EngramVersion.current

    /// Serves until the client closes standard input.
    public static func run(library: Library, version: String) async throws {
        signal(SIGPIPE, SIG_IGN)  // a client that goes away makes writes fail, not the process die
        let engine = Engine(library: library)
        let server = Server(name: "engram", version: version, title: "Engram", instructions: instructions,
                            capabilities: .init(resources: .init(subscribe: false, listChanged: false), tools: .init(listChanged: false)))
        await server.withMethodHandler(ListTools.self) { _ in .init(tools: MCPTools.all) }
        await server.withMethodHandler(CallTool.self) { params in try await engine.call(params) }
        await server.withMethodHandler(ListResources.self) { params in try await engine.listResources(cursor: params.cursor) }
        await server.withMethodHandler(ReadResource.self) { params in try await engine.readResource(params.uri) }
        try await server.start(transport: LineTransport())
        await server.waitUntilCompleted()
    }

    /// The library, used by one call at a time.
    actor Engine {
        let library: Library

        init(library: Library) { self.library = library }

        func call(_ params: CallTool.Parameters) throws -> CallTool.Result {
            var runner = IntentRunner(library: library, source: "mcp")
            runner.exportsOnlyToDataFolder = true
            let result: IntentResult
            do {
                if params.name == MCPTools.ask.name {
                    result = try runner.respond(try MCPTools.phrase(params))
                } else {
                    let (invocation, requestID) = try MCPTools.invocation(params)
                    runner.requestID = requestID
                    result = try runner.run(invocation)
                }
            } catch let error as MCPError {
                throw error  // a tool that does not exist
            } catch let error as MCPTools.Refusal {
                return Self.failure(error.description)
            } catch let error as EngramError {
                if case .notFound = error { return Self.failure("\(error); query_memory finds memories and their ids") }
                return Self.failure(error.description)
            } catch {
                return Self.failure("\(error)")
            }
            if result.clarification == nil, IntentCatalog.definition(result.intent).effect != .readOnly {
                _ = try? IndexClient().makeSearchable(library)
            }
            return try .init(content: [.text(text: Self.text(result), annotations: nil, _meta: nil)], structuredContent: Value(result), isError: false)
        }

        func listResources(cursor: String?) throws -> ListResources.Result {
            try MCPResources.list(library.store, cursor: cursor)
        }

        func readResource(_ uri: String) throws -> ReadResource.Result {
            try MCPResources.read(library.store, decay: library.config.decay, uri: uri)
        }

        /// A tool's own failure, as its result: the sentence the assistant reads to try again.
        static func failure(_ sentence: String) -> CallTool.Result {
            .init(content: [.text(text: sentence, annotations: nil, _meta: nil)], isError: true)
        }

        /// A result as text: its sentence, its lines, then each item with its id and address.
        static func text(_ r: IntentResult) -> String {
            var out = [r.sentence]
            out += r.lines
            out += r.items.map { item in
                var line = "- \(item.title) [\(item.kind) \(item.id)]"
                if let d = item.detail, !d.isEmpty { line += ": \(d)" }
                if let u = item.url { line += " <\(u)>" }
                return line
            }
            return out.joined(separator: "\n")
        }
    }
}
