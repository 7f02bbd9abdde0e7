import EngramApp
import EngramCore
import EngramWindow
import Foundation

// `engram-app`: Engram's window. `engram-app engram://memory/ID` opens it on a memory (a search, a session…); a
// second launch hands its link to the window already open and exits. `--data-dir FOLDER` as `engram` takes it.

let (paths, rest) = EngramPaths.programArguments(program: "engram-app", version: EngramVersion.current)
let passOn = [CommandLine.arguments.first ?? "engram-app"] + rest

// Without a GPU (no /dev/dri render node: a virtual machine, a remote or virtual display), GTK's GL renderer runs on
// Mesa's software rasterizer, slower and some 70 MB heavier than its cairo renderer; use cairo then, unless the
// person chose a renderer (GSK_RENDERER).
if ProcessInfo.processInfo.environment["GSK_RENDERER"] == nil,
   !((try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []).contains(where: { $0.hasPrefix("renderD") }) {
    setenv("GSK_RENDERER", "cairo", 1)
}

let library: Library
do {
    library = try Library(paths: paths)
} catch {
    FileHandle.standardError.write(Data("engram-app: \(error)\n".utf8))
    exit(74)
}
exit(EngramApplication(library: library).run(passOn))
