import Foundation

/// Writes an executable script at `path` through another process (`cp` from a draft): a script this process wrote
/// itself may be held open for writing, for an instant, by a process another test forks meanwhile, and the kernel
/// then refuses to run it ("Text file busy"; a clean-clone CI run met it). `cp`'s descriptor is its own.
public func writeScript(_ text: String, to path: String) throws {
    let draft = path + ".draft"
    try text.write(toFile: draft, atomically: false, encoding: .utf8)
    defer { unlink(draft) }
    let copy = Process()
    copy.executableURL = URL(fileURLWithPath: "/bin/cp")
    copy.arguments = [draft, path]
    try copy.run()
    copy.waitUntilExit()
    guard copy.terminationStatus == 0 else { throw TestError("cp could not write the script \(path)") }
    guard chmod(path, 0o755) == 0 else { throw TestError("could not make \(path) executable (errno \(errno))") }
}
