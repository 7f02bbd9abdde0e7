import EngramCore
import Foundation

/// Finds and runs outside programs with an argument vector: never through a shell.
public enum Executables {
    /// The full path of `name` on `$PATH`, if it is there and executable.
    public static func find(_ name: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
        for dir in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// What a program printed and how it ended.
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs `executable` with `arguments` (each one argv element), feeding `stdin`, and waits for it.
    public static func run(_ executable: String, _ arguments: [String], stdin: Data? = nil) throws -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        let out = Pipe(), err = Pipe(), inp = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = inp
        do { try p.run() } catch { throw EngramError.io("cannot run \(executable): \(error.localizedDescription)") }
        let input = stdin ?? Data()
        let writer = Thread {
            try? inp.fileHandleForWriting.write(contentsOf: input)
            try? inp.fileHandleForWriting.close()
        }
        writer.start()
        final class Box: @unchecked Sendable { var data = Data() }
        let box = Box()
        let group = DispatchGroup()
        group.enter()
        let handle = out.fileHandleForReading
        DispatchQueue.global().async { box.data = handle.readDataToEndOfFile(); group.leave() }
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        p.waitUntilExit()
        return Result(status: p.terminationStatus, stdout: String(decoding: box.data, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }
}
