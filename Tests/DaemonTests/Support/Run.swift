import EngramTestSupport
import Foundation
import Glibc

/// What a finished program printed and how it ended.
typealias Output = ProgramOutput

/// Runs programs the way a person or the desktop would, collecting their output.
enum Run {
    /// Runs `executable` with `arguments` and `environment`; kills it after `timeout` seconds.
    static func program(_ executable: String, _ arguments: [String], environment: [String: String],
                        timeout: TimeInterval = 60) throws -> Output {
        try runProgram(executable, arguments, environment: environment, timeout: timeout)
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
