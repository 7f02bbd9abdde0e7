import EngramRules
import Testing

@Suite struct EngramPathsTests {
    @Test("data and config folders follow ENGRAM_*_DIR, then absolute XDG folders, then HOME", arguments: [
        (["HOME": "/home/ada"], "/home/ada/.local/share/engram", "/home/ada/.config/engram"),
        (["HOME": "/home/ada", "XDG_DATA_HOME": "/data", "XDG_CONFIG_HOME": "/cfg"], "/data/engram", "/cfg/engram"),
        (["HOME": "/home/ada", "XDG_DATA_HOME": "relative/ignored"], "/home/ada/.local/share/engram", "/home/ada/.config/engram"),
        (["HOME": "/home/ada", "ENGRAM_DATA_DIR": "/srv/engram", "ENGRAM_CONFIG_DIR": "/etc/engram"], "/srv/engram", "/etc/engram"),
        (["HOME": "/home/ada", "ENGRAM_DATA_DIR": ""], "/home/ada/.local/share/engram", "/home/ada/.config/engram"),
    ])
    func folders(_ env: [String: String], data: String, config: String) {
        let paths = EngramPaths.fromEnvironment(env)
        #expect(paths.dataDirectory == data)
        #expect(paths.storePath == data + "/engram.sqlite")
        #expect(paths.indexPath == data + "/index")
        #expect(paths.configDirectory == config)
        #expect(paths.configPath == config + "/config.toml")
    }

    @Test func theRuntimeFolderIsUnderXDGRuntimeDir() {
        #expect(EngramPaths.fromEnvironment(["HOME": "/h", "XDG_RUNTIME_DIR": "/run/user/1000"]).runtimeDirectory == "/run/user/1000/engram")
        let fallback = EngramPaths.fromEnvironment(["HOME": "/h", "XDG_RUNTIME_DIR": "relative"]).runtimeDirectory
        #expect(fallback.hasPrefix("/") && fallback.hasSuffix("/engram") && fallback.contains("engram-"))
    }

    /// `engram-app` and `engram-mcp` read `--data-dir` as `engram` and `engram-feed` do: one rule for all four.
    @Test func programArgumentsTakeTheDataFolderAndLeaveTheRest() {
        let absolute = EngramPaths.parseProgramArguments(["engram-app", "--data-dir", "/srv/e", "engram://memory/x"])
        #expect(absolute.paths.dataDirectory == "/srv/e" && absolute.rest == ["engram://memory/x"] && absolute.error == nil && !absolute.version)
        let relative = EngramPaths.parseProgramArguments(["engram-mcp", "--data-dir=here"])
        #expect(relative.paths.dataDirectory.hasPrefix("/") && relative.paths.dataDirectory.hasSuffix("/here"))
        var paths = EngramPaths.fromEnvironment(["HOME": "/h"])
        paths.useDataDirectory("here")
        #expect(paths.dataDirectory == relative.paths.dataDirectory, "the same folder as engram's own --data-dir")
        #expect(EngramPaths.parseProgramArguments(["engram-app", "--data-dir"]).error == "--data-dir needs a folder")
        #expect(EngramPaths.parseProgramArguments(["engram-app", "--data-dir="]).error == "--data-dir needs a folder")
        #expect(EngramPaths.parseProgramArguments(["engram-mcp", "--version"]).version)
    }

    @Test func withoutHomeThePasswordDatabaseSaysWhere() {
        #expect(EngramPaths.fromEnvironment([:]).dataDirectory.hasPrefix("/"))
    }
}
