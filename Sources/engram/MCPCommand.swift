import ArgumentParser
import EngramCore
import Foundation

/// `engram mcp`: Engram for assistants, as a Model Context Protocol server on standard input and output. It runs
/// `engram-mcp` from beside this program (its own binary, so that no other command loads the MCP SDK's networking).
struct MCPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve Engram to an assistant over the Model Context Protocol (stdio).",
        discussion: """
            An MCP client (an editor, a chat client, a command-line agent) starts this and speaks JSON-RPC on its \
            standard input and output. Tools are the intents (`engram ask --list`) and `ask`, resources the memories \
            (engram://memory/ID). Works with the daemon running or not; listens on no network. Add it to a client as \
            {"mcpServers": {"engram": {"command": "engram", "args": ["mcp"]}}}.
            """)

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let server = (me as NSString).deletingLastPathComponent + "/engram-mcp"
        guard FileManager.default.isExecutableFile(atPath: server) else {
            Terminal.warn("engram mcp needs engram-mcp beside \(me) (make install and the package install both)")
            throw ExitCode(69)
        }
        var argv = [server]
        if global.dataDirectory != nil { argv += ["--data-dir", global.paths.dataDirectory] }
        let cArgs = argv.map { strdup($0) } + [nil]
        execv(server, cArgs)
        Terminal.warn("cannot start \(server): \(String(cString: strerror(errno)))")
        throw ExitCode(71)
    }
}
