import Foundation

/// Where Engram looks for what `make` installs beside it (the meaning model in `model/`, the speech recogniser in
/// `speech/`): the folder one to three levels above the running program (a build: `.build/NAME`), then
/// `PREFIX/lib/engram/NAME` beside an installed `PREFIX/bin/engram`, `/usr/local/lib/engram/NAME`,
/// `/usr/lib/engram/NAME`.
public enum InstalledFolders {
    /// The running program's own file: the kernel's answer (`/proc/self/exe`), since `argv[0]` is only the name a
    /// shell found on `PATH` ("engram") when a person, a widget or a keybinding runs it.
    public static var executable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments.first ?? ""
    }

    public static func candidates(named name: String) -> [String] {
        let exe = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
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
