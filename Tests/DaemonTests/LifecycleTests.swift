import DBus
import EngramCore
import EngramTestSupport
import Foundation
import EngramApp
import Indexer
import Testing

/// The daemon's life: D-Bus activation, crashes, a second instance, graceful stops and its log.
@Suite struct LifecycleTests {
    typealias D = DaemonFixture

    @Test func aProviderCallStartsTheDaemonAndStartsItAgainAfterSIGKILL() async throws {
        try await withDaemon { d in
            #expect(try d.daemonPID() == nil, "nothing runs before the first call")
            #expect(try d.initialResultSet(["sourdough"]).contains("engram://memory/s165"))
            let first = try #require(try d.daemonPID())

            kill(first, SIGKILL)
            #expect(D.waitForExit(first, timeout: 10))
            #expect(try await eventually { try d.daemonPID() == nil })

            // The next call, GNOME Shell's or KRunner's, activates a fresh daemon that answers it.
            #expect(try d.initialResultSet(["focaccia"]).contains("engram://memory/s165"))
            let second = try #require(try d.daemonPID())
            #expect(second != first)
            let matches = try d.gdbusValue(D.runnerPath, D.runner, "Match", ["'focaccia'"]).first as? [[Any]] ?? []
            #expect(matches.contains { $0.first as? String == "engram://memory/s165" })
        }
    }

    /// The CLI nudges a running daemon but never starts one: here another process holds the index writer,
    /// the bus could activate the daemon, and `engram remember` must still leave the bus alone.
    @Test func theCLINeverStartsTheDaemon() async throws {
        try await withDaemon { d in
            let writer = try IndexWriter.open(at: d.dataDir + "/index", create: false)
            defer { writer.close() }
            let out = try d.engram(["remember", "Nobody should wake the daemon for this"])
            #expect(out.status == 0, "\(out.stderr)")
            #expect(out.stdout.hasPrefix("Remembered "))
            #expect(try d.daemonPID() == nil)
            #expect(!d.bus.log.contains("Activating service"), "\(d.bus.log)")
        }
    }

    @Test func aSecondDaemonSaysOneRunsAndExitsZero() async throws {
        try await withDaemon { d in
            _ = try d.initialResultSet(["sourdough"])
            let pid = try #require(try d.daemonPID())
            let second = try d.engram(["daemon"], timeout: 30)
            #expect(second.status == 0)
            #expect(second.stderr.contains("already running as pid \(pid)"), "said: \(second.stderr)")
            #expect(try d.daemonPID() == pid)
        }
    }

    /// SIGTERM is how systemd stops it, SIGINT is Ctrl+C in the terminal `make run` or `engram daemon` runs in.
    @Test(arguments: [SIGTERM, SIGINT])
    func aStopSignalCommitsReleasesTheWriterAndTheNameAndExitsZero(_ stopSignal: Int32) async throws {
        let name = stopSignal == SIGTERM ? "SIGTERM" : "SIGINT"
        try await withDaemon { d in
            let err = try ChildPipe()
            let daemon: ChildProcess
            do {
                defer { close(err.write) }
                daemon = try ChildProcess.spawn(D.engramBinary, ["daemon"], environment: d.environment, stderr: err.write)
            }
            defer { close(err.read) }
            #expect(try await eventually { try d.daemonPID() == daemon.pid })

            // A capture the daemon was not told about, then the signal at once.
            let store = try Store(path: d.dataDir + "/engram.sqlite")
            let memory = try store.remember(MemoryDraft(content: "Quokka facts before shutdown", source: "test")).memory
            daemon.signal(stopSignal)
            let log = readAll([err.read], until: Date().addingTimeInterval(30)).texts[0]
            #expect(daemon.exitCode == 0, "log: \(log)")
            #expect(log.contains("<6>stopping signal=\(name)"), "\(log)")
            #expect(log.contains("<6>stopped"))
            #expect(try d.client.nameOwner(D.busName) == nil)

            // The capture is committed to the index, and the writer is free for the CLI.
            let status = try d.engram(["index", "status", "--json"])
            #expect(status.stdout.contains("\"pending\":0"), "\(status.stdout)")
            #expect(try d.engram(["search", "--json", "quokka"]).stdout.contains("\"id\":\"\(memory.id)\""))
            let remember = try d.engram(["forget", "--yes", memory.id])
            #expect(remember.stdout == "Forgot \(memory.id).\n", "the CLI applied it itself: \(remember.stdout)")
        }
    }

    @Test func logLinesAreJournalLinesWithPriorities() async throws {
        try await withDaemon { d in
            _ = try d.initialResultSet(["sourdough"])
            _ = try d.engram(["remember", "multi\nline\u{1B}[31m capture"])
            _ = try d.gdbus(D.appPath, D.app, "Open", ["'engram://memory/nope'"])
            #expect(await eventually { d.bus.log.contains("applied changes to the index") })
            let lines = d.bus.log.split(separator: "\n").filter { !$0.hasPrefix("dbus-daemon[") }
            #expect(!lines.isEmpty)
            for line in lines {
                #expect(line.range(of: #"^<[0-7]>\S"#, options: .regularExpression) != nil, "not a journal line: \(line)")
                #expect(!line.contains("\u{1B}"), "colour codes: \(line)")
            }
            #expect(lines.contains { $0.hasPrefix("<6>ready ") })
        }
    }

    @Test func malformedCallsGetErrorsAndTheDaemonKeepsServing() async throws {
        try await withDaemon { d in
            _ = try d.initialResultSet(["sourdough"])
            let pid = try #require(try d.daemonPID())
            func error(_ path: String, _ interface: String, _ method: String, _ args: [DBusValue]) -> DBusError? {
                #expect(throws: DBusError.self) { try d.call(path, interface, method, args) }
            }
            let manyTerms = DBusValue.strings((0..<200_000).map { "t\($0)" })
            let cases: [(String, String, String, [DBusValue], String)] = [
                (D.providerPath, D.provider, "GetInitialResultSet", ["sourdough"], DBusError.Name.invalidArgs),
                (D.providerPath, D.provider, "GetInitialResultSet", [manyTerms], DBusError.Name.invalidArgs),
                (D.providerPath, D.provider, "GetInitialResultSet", [.strings([String(repeating: "a", count: 100_000)])], DBusError.Name.invalidArgs),
                (D.providerPath, D.provider, "GetResultMetas", [manyTerms], DBusError.Name.invalidArgs),
                (D.providerPath, D.provider, "ActivateResult", ["engram://memory/s165", .strings([])], DBusError.Name.invalidArgs),
                (D.providerPath, D.provider, "ActivateResult", ["rm -rf /", .strings([]), .uint32(0)], "org.engram.Engram.Error.InvalidInput"),
                (D.providerPath, D.provider, "Explode", [], DBusError.Name.unknownMethod),
                (D.providerPath, "org.example.Nope", "GetInitialResultSet", [.strings(["x"])], DBusError.Name.unknownInterface),
                ("/org/engram/Nowhere", D.provider, "GetInitialResultSet", [.strings(["x"])], DBusError.Name.unknownObject),
                (D.runnerPath, D.runner, "Match", [.uint32(7)], DBusError.Name.invalidArgs),
                (D.runnerPath, D.runner, "Match", [.string(String(repeating: "swift ", count: 200_000))], DBusError.Name.invalidArgs),
                (D.runnerPath, D.runner, "Run", ["engram://memory/s165", "explode"], DBusError.Name.invalidArgs),
                (D.appPath, D.app, "Remember", ["only one argument"], DBusError.Name.invalidArgs),
                (D.appPath, D.app, "Remember", [.string(String(repeating: "x", count: 5 * 1024 * 1024)), "", .strings([]), "", ""],
                 "org.engram.Engram.Error.InvalidInput"),
                (D.appPath, "org.freedesktop.DBus.Properties", "Set", [.string(D.app), "MemoryCount", .variant(.uint32(1))],
                 DBusError.Name.propertyReadOnly),
            ]
            for (path, interface, method, args, expected) in cases {
                let failure = error(path, interface, method, args)
                #expect(failure?.name == expected, "\(interface).\(method): \(String(describing: failure))")
                #expect(try d.initialResultSet(["focaccia"]).contains("engram://memory/s165"), "stopped serving after \(method)")
            }
            #expect(try d.daemonPID() == pid, "the daemon restarted: it crashed on a malformed call")
        }
    }

    /// The same kind of calls from the desktop's own tools: gdbus (which GNOME's scripts use) names the error it got;
    /// busctl sends whatever signature it is given, unchecked, as a buggy client would.
    @Test func malformedCallsFromGdbusAndBusctlGetErrorsAndTheDaemonKeepsServing() async throws {
        try await withDaemon { d in
            _ = try d.initialResultSet(["sourdough"])
            let pid = try #require(try d.daemonPID())
            let named: [(String, String, String, String)] = [
                (D.providerPath, D.provider, "Explode", DBusError.Name.unknownMethod),
                (D.providerPath, "org.example.Nope", "GetInitialResultSet", DBusError.Name.unknownInterface),
                ("/org/engram/Nowhere", D.provider, "GetInitialResultSet", DBusError.Name.unknownObject),
            ]
            for (path, interface, method, expected) in named {
                let out = try d.gdbus(path, interface, method, ["['x']"])
                #expect(out.status != 0 && out.stderr.contains(expected), "gdbus \(interface).\(method): \(out.stderr)")
                #expect(try d.initialResultSet(["focaccia"]).contains("engram://memory/s165"), "stopped serving after \(method)")
            }
            let huge = ["as", "100000"] + (0..<100_000).map { "t\($0)" }
            let raw: [(String, String, String, [String])] = [
                (D.providerPath, D.provider, "GetInitialResultSet", ["s", "sourdough"]),
                (D.providerPath, D.provider, "GetInitialResultSet", huge),
                (D.providerPath, D.provider, "GetResultMetas", ["u", "7"]),
                (D.providerPath, D.provider, "ActivateResult", ["sas", "engram://memory/s165", "0"]),
                (D.runnerPath, D.runner, "Match", ["as", "1", "swift"]),
                (D.appPath, D.app, "Remember", ["s", "only one argument"]),
            ]
            for (path, interface, method, args) in raw {
                let out = try Run.program("/usr/bin/busctl", ["--user", "call", D.busName, path, interface, method] + args,
                                          environment: d.environment, timeout: 60)
                #expect(out.status != 0 && out.stderr.contains("Call failed"), "busctl \(method) \(args.prefix(2)): \(out.status) \(out.stderr)")
                #expect(try d.initialResultSet(["focaccia"]).contains("engram://memory/s165"), "stopped serving after \(method)")
            }
            #expect(try d.engram(["export"]).stdout.contains("only one argument") == false, "a malformed Remember stored something")
            #expect(try d.daemonPID() == pid, "the daemon restarted: it crashed on a malformed call")
        }
    }

    @Test func rebuildWhileTheDaemonHoldsTheWriterWorks() async throws {
        try await withDaemon { d in
            _ = try d.initialResultSet(["sourdough"])
            let plain = try d.engram(["remember", "Rebuild me, quietly"])
            #expect(plain.status == 0)
            let rebuild = try d.engram(["index", "rebuild"])
            #expect(rebuild.status == 0, "\(rebuild.stderr)")
            // The client names the daemon it asked, with its process id.
            let pid = try #require(try d.daemonPID())
            #expect(rebuild.stderr.contains("the daemon (pid \(pid)) holds the index; asking it to rebuild"), "\(rebuild.stderr)")
            let documents = try d.engram(["index", "status", "--json"]).stdout
            let count = documents.range(of: #""documents":(\d+)"#, options: .regularExpression).map { documents[$0].dropFirst(12) }
            #expect(rebuild.stdout.hasPrefix("Rebuilt the index: \(count ?? "?") items"), "\(rebuild.stdout) vs \(documents)")
            #expect(!rebuild.stderr.lowercased().contains("lock"))
            #expect(try d.initialResultSet(["quietly"]).count == 1)
            // The daemon writes again after the rebuild.
            #expect(try d.engram(["remember", "After the rebuild, a walrus"]).status == 0)
            #expect(try d.initialResultSet(["walrus"]).count == 1)
            // An import nudges the daemon instead of indexing here, and says so.
            let file = d.base + "/narwhal.jsonl"
            try #"{"kind":"memory","id":"imp1","content":"Imported while the daemon holds the writer, a narwhal"}"#
                .write(toFile: file, atomically: true, encoding: .utf8)
            let imported = try d.engram(["import", file])
            #expect(imported.status == 0 && imported.stdout.contains("The running daemon is indexing them now."), "\(imported.stdout) \(imported.stderr)")
        }
    }
}
