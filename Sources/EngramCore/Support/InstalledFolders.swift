import Foundation

/// Where Engram looks for what `make` installs beside it (the meaning model in `model/`, the speech recogniser in
/// `speech/`): the folder one to three levels above the running program (a build: `.build/NAME`), then
/// `PREFIX/lib/engram/NAME` beside an installed `PREFIX/bin/engram`, `/usr/local/lib/engram/NAME`,
/// `/usr/lib/engram/NAME`.
public enum InstalledFolders {
    public static func candidates(named name: String) -> [String] {
        let exe = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath().deletingLastPathComponent()
        var out: [String] = []
        var dir = exe
        for _ in 0..<3 {
            dir = dir.deletingLastPathComponent()
            out.append(dir.appendingPathComponent(name).path)
        }
        out.append(exe.deletingLastPathComponent().appendingPathComponent("lib/engram/" + name).path)
        out += ["/usr/local/lib/engram/" + name, "/usr/lib/engram/" + name]
        return out
    }
}
