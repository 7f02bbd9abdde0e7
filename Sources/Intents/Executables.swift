import EngramCore
import Foundation

/// Runs outside programs with an argument vector, never through a shell, and waits for what they print
/// (`Spawner` starts them and finds them on `$PATH`).
public enum Executables {
    /// What a program printed and how it ended.
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs `executable` with `arguments` (each one argv element), feeding `stdin`, and waits for it.
    public static func run(_ executable: String, _ arguments: [String], stdin: Data? = nil) throws -> Result {
        let child: Spawner.Child
        do {
            child = try Spawner.spawn(executable, arguments, input: stdin ?? Data(), stdout: .pipe, stderr: .pipe)
        } catch {
            throw EngramError.io("cannot run \(executable): \(error)")
        }
        final class Box: @unchecked Sendable { var data = Data() }
        let output = Box()
        let group = DispatchGroup()
        if let fd = child.stdout {
            group.enter()
            DispatchQueue.global().async { output.data = Spawner.readToEnd(fd); group.leave() }
        }
        let errors = child.stderr.map(Spawner.readToEnd) ?? Data()
        group.wait()
        let status: Int32
        switch Spawner.wait(child.pid) {  // as Foundation's Process told it: the exit status, or the signal
        case .exited(let code): status = code
        case .signaled(let signal): status = signal
        }
        return Result(status: status, stdout: String(decoding: output.data, as: UTF8.self), stderr: String(decoding: errors, as: UTF8.self))
    }
}
