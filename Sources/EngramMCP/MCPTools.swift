import EngramApp
import EngramCore
import Foundation
import Intents
import MCP

/// The MCP tools: one per intent of the catalog, named after it in snake case (`QueryMemory` → `query_memory`), with
/// a JSON Schema made from its parameters and annotations from its effect. Nothing here is written twice: the
/// catalog says what a tool takes, `IntentRunner` does what it asks, as it does for the CLI, D-Bus and links.
enum MCPTools {
    /// The tool name of `definition`.
    static func name(_ definition: IntentDefinition) -> String { definition.desktopActionID.replacingOccurrences(of: "-", with: "_") }

    /// The definition a tool name stands for.
    static func definition(tool: String) -> IntentDefinition? { IntentCatalog.all.first { name($0) == tool } }

    /// Extra arguments a tool takes beyond its intent's parameters: StoreMemory's idempotency key.
    static let requestIDArgument = "requestId"

    /// The tool that takes a request in words, as `engram ask` and D-Bus `Perform` do.
    static let ask = Tool(
        name: "ask", title: "Ask in words",
        description: "A request in the person's words (\"take a short break\", \"what do I know about sourdough\"). Runs it when it is clear; otherwise answers Engram's question as structured content (clarification: question, options, missing) and runs nothing. Never forgets anything.",
        inputSchema: .object(["type": "object", "properties": .object(["phrase": .object(["type": "string", "maxLength": .int(Limits.maxQueryBytes), "description": "What the person said."])]),
                              "required": .array(["phrase"]), "additionalProperties": false]),
        annotations: .init(title: "Ask in words", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false))

    /// A call the tool refuses: its arguments do not fit, or what they name is not there. It is answered as the tool's
    /// result with `isError`, which the assistant reads and can act on (MCP's tool execution errors); only a tool that
    /// does not exist is a protocol error.
    struct Refusal: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The phrase of an `ask` call; a call that does not fit is refused.
    static func phrase(_ params: CallTool.Parameters) throws -> String {
        guard let args = params.arguments, args.count == 1, let phrase = args["phrase"]?.stringValue else {
            throw Refusal("ask takes one argument, phrase (a string)")
        }
        guard !phrase.trimmingCharacters(in: .whitespaces).isEmpty, phrase.utf8.count <= Limits.maxQueryBytes, !phrase.utf8.contains(0) else {
            throw Refusal("phrase must be 1 to \(Limits.maxQueryBytes) bytes of text without NUL characters")
        }
        return phrase
    }

    /// Every tool: each intent of the catalog, and `ask`.
    static var all: [Tool] {
        [ask] + IntentCatalog.all.map { d in
            var properties: [String: Value] = [:]
            for p in d.parameters { properties[p.name] = schema(p) }
            if d.name == .storeMemory {
                properties[requestIDArgument] = .object([
                    "type": "string", "maxLength": 200,
                    "description": "An id of your own for this capture: calling again with the same id stores nothing twice.",
                ])
            }
            let required = d.parameters.filter { $0.isRequired || (d.name == .forgetMemory && $0.name == "confirm") }.map { Value.string($0.name) }
            return Tool(
                name: name(d), title: d.title, description: d.summary,
                inputSchema: .object(["type": "object", "properties": .object(properties), "required": .array(required),
                                      "additionalProperties": false]),
                annotations: .init(title: d.title, readOnlyHint: d.effect == .readOnly, destructiveHint: d.effect == .erases,
                                   idempotentHint: d.isIdempotent, openWorldHint: false))
        }
    }

    /// A parameter's JSON Schema.
    static func schema(_ p: IntentParameter) -> Value {
        var s: [String: Value] = ["description": .string(p.summary)]
        switch p.kind {
        case .integer:
            s["type"] = "integer"; s["minimum"] = 0; s["maximum"] = 10_000
        case .boolean:
            s["type"] = "boolean"
        case .timeRange:
            s["type"] = "string"; s["enum"] = .array(TimeRange.allCases.map { .string($0.rawValue) })
        case .memoryType:
            s["type"] = "string"; s["enum"] = .array(MemoryType.allCases.map { .string($0.rawValue) })
        case .text, .memory, .curriculum, .topic:
            s["type"] = "string"; s["maxLength"] = .int(Limits.maxQueryBytes)
        }
        if let d = p.defaultValue, !d.isEmpty {
            switch p.kind {
            case .integer: s["default"] = Int(d).map(Value.int) ?? .string(d)
            case .boolean: s["default"] = .bool(d == "true")
            default: s["default"] = .string(d)
            }
        }
        return .object(s)
    }

    /// The invocation a tool call asks for. A tool that does not exist is an `invalidParams` error; arguments that do
    /// not fit the tool's schema are refused.
    static func invocation(_ params: CallTool.Parameters) throws -> (IntentInvocation, requestID: String?) {
        guard let d = definition(tool: params.name) else {
            throw MCPError.invalidParams("no tool called “\(params.name.prefix(80))”; tools/list names them")
        }
        var args: [String: String] = [:]
        var requestID: String?
        for (key, value) in params.arguments ?? [:] {
            if d.name == .storeMemory, key == requestIDArgument {
                guard let id = value.stringValue, !id.isEmpty, id.utf8.count <= 200 else {
                    throw Refusal("\(requestIDArgument) must be a string of 1 to 200 bytes")
                }
                requestID = id
                continue
            }
            guard let p = d.parameter(key) else {
                throw Refusal("\(name(d)) has no argument “\(key.prefix(80))”; it takes \(d.parameters.map(\.name).joined(separator: ", "))")
            }
            args[key] = try text(value, for: p, tool: name(d))
        }
        if d.name == .forgetMemory, args["confirm"] != "true" {
            throw Refusal("forget_memory erases a memory everywhere and cannot be undone: call it with confirm = true only if the person asked to forget this memory")
        }
        let invocation = IntentInvocation(d.name, args)
        do {
            _ = try invocation.resolved()
        } catch {
            throw Refusal("\(name(d)): \(error)")
        }
        return (invocation, requestID)
    }

    /// A JSON argument as the text the catalog reads, checked against the parameter's kind.
    static func text(_ value: Value, for p: IntentParameter, tool: String) throws -> String {
        func wrong(_ what: String) -> Refusal { Refusal("\(tool): \(p.name) must be \(what)") }
        switch p.kind {
        case .integer:
            if let n = value.intValue { return String(n) }
            if let d = value.doubleValue, d.rounded() == d, d.magnitude < 1e9 { return String(Int(d)) }
            throw wrong("a whole number")
        case .boolean:
            guard let b = value.boolValue else { throw wrong("true or false") }
            return String(b)
        default:
            guard let s = value.stringValue else { throw wrong("a string") }
            guard s.utf8.count <= Limits.maxQueryBytes else { throw wrong("at most \(Limits.maxQueryBytes) bytes") }
            guard !s.utf8.contains(0) else { throw wrong("text without NUL characters") }
            return s
        }
    }
}
