import Foundation

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
    /// Runs `executable` with `arguments` and `environment`, feeding `stdin`; kills it after `timeout` seconds.
    static func program(_ executable: String, _ arguments: [String], environment: [String: String],
                        stdin: Data? = nil, timeout: TimeInterval = 60) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        let collected = Collected()
        let readers = DispatchGroup()
        for (pipe, isOut) in [(out, true), (err, false)] {
            readers.enter()
            DispatchQueue.global().async {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                collected.set(String(decoding: data, as: UTF8.self), stdout: isOut)
                readers.leave()
            }
        }
        try process.run()
        if let stdin {
            try? input.fileHandleForWriting.write(contentsOf: stdin)
            try? input.fileHandleForWriting.close()
        }
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            // SIGKILL: a child started from a test thread inherits its blocked signals, SIGTERM among them.
            kill(process.processIdentifier, SIGKILL)
            _ = exited.wait(timeout: .now() + 5)
            readers.wait()
            throw TestError("\(executable) \(arguments.joined(separator: " ")) did not finish within \(timeout) s; stderr: \(collected.stderr)")
        }
        readers.wait()
        return Output(status: process.terminationStatus, stdout: collected.stdout, stderr: collected.stderr)
    }

    /// Parses GVariant text (as `gdbus call` prints it) into JSON-like values, with GLib's own parser.
    static func gvariant(_ text: String) throws -> Any {
        let script = """
            import json, sys
            from gi.repository import GLib
            value = GLib.Variant.parse(None, sys.stdin.read(), None, None)
            print(json.dumps(value.unpack()))
            """
        let out = try program("/usr/bin/python3", ["-c", script], environment: ProcessInfo.processInfo.environment,
                              stdin: Data(text.utf8))
        guard out.status == 0 else { throw TestError("GLib could not parse \(text.prefix(200)): \(out.stderr)") }
        return try JSONSerialization.jsonObject(with: Data(out.stdout.utf8), options: [.fragmentsAllowed])
    }
}

/// Output gathered from a child's pipes on background threads.
private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var out = ""
    private var err = ""
    func set(_ text: String, stdout: Bool) { lock.withLock { if stdout { out = text } else { err = text } } }
    var stdout: String { lock.withLock { out } }
    var stderr: String { lock.withLock { err } }
}
