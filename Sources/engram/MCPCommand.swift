import ArgumentParser
import EngramCore
import EngramMCP

/// `engram mcp`: Engram for assistants, as a Model Context Protocol server on standard input and output.
struct MCPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve Engram to an assistant over the Model Context Protocol (stdio).",
        discussion: """
            An MCP client (an editor, a chat client, a command-line agent) starts this and speaks JSON-RPC on its \
            standard input and output. Tools are the intents (`engram ask --list`), resources the memories \
            (engram://memory/ID). Works with the daemon running or not; listens on no network. Add it to a client as \
            {"mcpServers": {"engram": {"command": "engram", "args": ["mcp"]}}}.
            """)

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let library = try global.library()
        let version = EngramCommand.configuration.version
        try Live.wait { try await EngramMCPServer.run(library: library, version: version) }
    }
}
