import EngramCore
import Foundation

/// Runs the built `engram` binary against a private data folder, as a person at a terminal would.
struct EngramProcess {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
        /// Whether the process was killed by a signal rather than exiting.
        var signaled: Bool
    }

    let dataDir: String
    let configDir: String
    var extraEnvironment: [String: String] = [:]

    /// A fresh, empty data folder; `extraEnvironment` goes to every run.
    init(extraEnvironment: [String: String] = [:]) {
        self.extraEnvironment = extraEnvironment
        let base = NSTemporaryDirectory() + "engram-e2e-" + UUID().uuidString
        dataDir = base + "/data"
        configDir = base + "/config"
        try! FileManager.default.createDirectory(atPath: configDir, withIntermediateDirectories: true)
    }

    /// The `engram` binary beside the test bundle (or `$ENGRAM_BIN`).
    static let binary: String = {
        if let b = ProcessInfo.processInfo.environment["ENGRAM_BIN"] { return b }
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for dir in [here, here.deletingLastPathComponent()] {
            let candidate = dir.appendingPathComponent("engram").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/engram").path
    }()

    /// The repository root (for Samples/).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    var indexPath: String { dataDir + "/index" }
    var storePath: String { dataDir + "/engram.sqlite" }

    /// Runs `engram args…`, feeding `stdin`.
    @discardableResult
    func run(_ args: [String], stdin: Data? = nil, env: [String: String] = [:]) throws -> Output {
        try Self.exec(Self.binary, args, stdin: stdin, env: baseEnvironment.merging(env) { _, b in b })
    }

    var baseEnvironment: [String: String] {
        var e = ProcessInfo.processInfo.environment
        e["ENGRAM_DATA_DIR"] = dataDir
        e["ENGRAM_CONFIG_DIR"] = configDir
        e["TZ"] = "UTC"
        e.removeValue(forKey: "ENGRAM_TEST_CRASH_AT")
        return e.merging(extraEnvironment) { _, b in b }
    }

    /// Runs any program and collects its output.
    static func exec(_ path: String, _ args: [String], stdin: Data? = nil, env: [String: String]? = nil) throws -> Output {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = args
        if let env { p.environment = env }
        let out = Pipe(), err = Pipe(), inp = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = inp
        try p.run()
        let writer = Thread {
            if let stdin { try? inp.fileHandleForWriting.write(contentsOf: stdin) }
            try? inp.fileHandleForWriting.close()
        }
        writer.start()
        final class Box: @unchecked Sendable { var data = Data() }
        let outBox = Box()
        let group = DispatchGroup()
        group.enter()
        let outHandle = out.fileHandleForReading
        DispatchQueue.global().async { outBox.data = outHandle.readDataToEndOfFile(); group.leave() }
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        let outData = outBox.data
        p.waitUntilExit()
        return Output(status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self), signaled: p.terminationReason == .uncaughtSignal)
    }

    /// The ids `engram search --json` returns for `query`.
    func searchIDs(_ query: String, extra: [String] = []) throws -> [String] {
        let out = try run(["search", "--json", "--limit", "100"] + extra + [query])
        guard out.status == 0 || out.status == 1 else { throw Failure("search failed (\(out.status)): \(out.stderr)") }
        let obj = try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any]
        return (obj?["results"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    /// Imports JSON Lines records (Engram's export format).
    func importLines(_ lines: [String]) throws {
        let file = configDir + "/import-\(UUID().uuidString).jsonl"
        try lines.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let out = try run(["import", file])
        guard out.status == 0 else { throw Failure("import failed: \(out.stderr)") }
    }

    /// Every link in the store, as "from-to (origin)" with the two ids in order.
    func links() throws -> Set<String> {
        let store = try Store(path: storePath)
        return Set(try store.allLinks().map { "\($0.fromID)-\($0.toID) (\($0.origin.rawValue))" })
    }

    /// Imports the sample collection.
    /// Imports the sample collection, dated from today on the Engram clock this process's runs see
    /// (scripts/samples.py moves its dates so that its own "today" is that day).
    func importSamples() throws {
        let s = dataDir + "-samples"
        let copied = try Self.exec("/usr/bin/python3", [Self.root + "/scripts/samples.py", s], stdin: nil, env: baseEnvironment)
        guard copied.status == 0 else { throw Failure("scripts/samples.py failed: \(copied.stderr)") }
        let out = try run(["import", s + "/memories.jsonl", s + "/curricula/swift-concurrency.toml", s + "/curricula/spanish-b1.yaml"])
        guard out.status == 0 else { throw Failure("import failed: \(out.stderr)") }
    }
}

/// Writes a Markdown note for an import, modified now on the Engram clock: a note without a date in its front matter
/// is dated by its file's modification time, which must agree with the clock the test's `engram` runs on.
func writeNote(_ text: String, to path: String) throws {
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.modificationDate: Date.wallNow], ofItemAtPath: path)
}

/// A test failure with a message.
struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
