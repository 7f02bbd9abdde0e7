import EngramApp
import EngramCore
import EngramMCP
import Foundation

// `engram-mcp`: the MCP server `engram mcp` runs. A binary of its own because the MCP SDK links Foundation's
// networking (libcurl and some thirty libraries loaded at start-up): every other `engram` command would pay
// 6 ms of start-up for a server it does not run. It takes `--data-dir FOLDER` as `engram` does; everything else
// comes from the environment (ENGRAM_DATA_DIR, XDG folders).

let (paths, rest) = EngramPaths.programArguments(program: "engram mcp", version: EngramMCPServer.version)
if let argument = rest.first {
    FileHandle.standardError.write(Data("engram mcp: unknown argument \(argument); it takes --data-dir FOLDER\n".utf8))
    exit(64)
}

let library: Library
do {
    library = try Library(paths: paths)
} catch {
    FileHandle.standardError.write(Data("engram mcp: \(error)\n".utf8))
    exit(error is EngramError && (error as! EngramError).exitCode == 78 ? 78 : 74)
}
do {
    try await EngramMCPServer.run(library: library, version: EngramMCPServer.version)
} catch {
    FileHandle.standardError.write(Data("engram mcp: \(error)\n".utf8))
    exit(74)
}
exit(0)
