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

    @Test func withoutHomeThePasswordDatabaseSaysWhere() {
        #expect(EngramPaths.fromEnvironment([:]).dataDirectory.hasPrefix("/"))
    }
}
