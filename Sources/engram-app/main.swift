import EngramApp
import EngramCore
import EngramWindow
import Foundation

// `engram-app`: Engram's window. `engram-app engram://memory/ID` opens it on a memory (a search, a session…); a
// second launch hands its link to the window already open and exits. `--data-dir FOLDER` as `engram` takes it.

var paths = EngramPaths.fromEnvironment()
var passOn = [CommandLine.arguments.first ?? "engram-app"]
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--data-dir":
        guard let folder = arguments.popFirst() else {
            FileHandle.standardError.write(Data("engram-app: --data-dir needs a folder\n".utf8))
            exit(64)
        }
        paths.dataDirectory = folder.hasPrefix("/") ? folder : FileManager.default.currentDirectoryPath + "/" + folder
    case "--version":
        print(EngramVersion.current)
        exit(0)
    default:
        passOn.append(argument)
    }
}

let library: Library
do {
    library = try Library(paths: paths)
} catch {
    FileHandle.standardError.write(Data("engram-app: \(error)\n".utf8))
    exit(74)
}
exit(EngramApplication(library: library).run(passOn))
