import Foundation
import Glibc

/// What a finished program printed and how it ended.
struct Output: Sendable {
    var status: Int32
    var stdout: String
    var stderr: String
    /// Standard output without the trailing newline.
    var text: String { stdout.trimmingCharacters(in: .whitespacesAndNewlines) }
}

/// Runs programs the way a person or the desktop would, collecting their output.
enum Run {
    /// Runs `executable` with `arguments` and `environment`; kills it after `timeout` seconds.
    static func program(_ executable: String, _ arguments: [String], environment: [String: String],
                        timeout: TimeInterval = 60) throws -> Output {
        let out = try ChildPipe(), err = try ChildPipe()
        let child: ChildProcess
        do {
            defer { close(out.write); close(err.write) }
            child = try ChildProcess.spawn(executable, arguments, environment: environment, stdout: out.write, stderr: err.write)
        }
        defer { close(out.read); close(err.read) }
        let (texts, timedOut) = readAll([out.read, err.read], until: Date().addingTimeInterval(timeout))
        if timedOut {
            child.kill()
            throw TestError("\(executable) \(arguments.joined(separator: " ").prefix(300)) did not finish within \(timeout) s; stderr: \(texts[1])")
        }
        return Output(status: child.exitCode, stdout: texts[0], stderr: texts[1])
    }

    /// Parses GVariant text (as `gdbus call` prints it) into JSON-like values, with GLib's own parser.
    static func gvariant(_ text: String) throws -> Any {
        let script = """
            import json, sys
            from gi.repository import GLib
            print(json.dumps(GLib.Variant.parse(None, sys.argv[1], None, None).unpack()))
            """
        let out = try program("/usr/bin/python3", ["-c", script, text], environment: ProcessInfo.processInfo.environment)
        guard out.status == 0 else { throw TestError("GLib could not parse \(text.prefix(200)): \(out.stderr)") }
        return try JSONSerialization.jsonObject(with: Data(out.stdout.utf8), options: [.fragmentsAllowed])
    }
}
