import EngramTestSupport
import Foundation
import Glibc
import Testing

/// `make run` (scripts/run-daemon.sh) as a person runs it: on a private bus, with an empty demo folder, then Ctrl+C.
@Suite struct MakeRunTests {
    typealias D = DaemonFixture

    /// Reads a child's stdout and stderr as they come, on a thread of its own.
    final class LiveOutput: @unchecked Sendable {
        private let lock = NSLock()
        private var texts = ["", ""]
        private let done = DispatchSemaphore(value: 0)

        init(stdout: Int32, stderr: Int32) {
            Thread.detachNewThread { [self] in
                var fds = [stdout, stderr]
                var buffer = [UInt8](repeating: 0, count: 65536)
                while fds.contains(where: { $0 >= 0 }) {
                    var polls = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
                    if poll(&polls, nfds_t(polls.count), 1000) <= 0 { continue }
                    for (i, p) in polls.enumerated() where p.revents != 0 && fds[i] >= 0 {
                        let n = read(fds[i], &buffer, buffer.count)
                        if n > 0 {
                            let text = String(decoding: buffer[0..<n], as: UTF8.self)
                            lock.withLock { texts[i] += text }
                        } else if n == 0 || errno != EINTR {
                            close(fds[i])
                            fds[i] = -1
                        }
                    }
                }
                done.signal()
            }
        }

        var stdout: String { lock.withLock { texts[0] } }
        var stderr: String { lock.withLock { texts[1] } }

        /// Waits until both streams are closed (every process holding them has exited); false on timeout.
        func waitForEnd(seconds: Double) -> Bool { done.wait(timeout: .now() + seconds) == .success }
    }

    /// The processes of process group `group` that are still running (not exited and waiting to be reaped).
    static func running(inGroup group: pid_t) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { pid -> String? in
            guard Int32(pid) != nil, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            // After the command's closing parenthesis: state, parent, process group.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, fields[2] == "\(group)", fields[0] != "Z" else { return nil }
            return "\(pid) " + (stat[..<close].split(separator: "(", maxSplits: 1).last.map(String.init) ?? "?")
        }
    }

    @Test func makeRunImportsTheSamplesServesThePrintedCallsAndStopsOnCtrlC() async throws {
        let base = NSTemporaryDirectory() + "engram-make-run-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: base) }
        let demo = base + "/demo-data"
        try FileManager.default.createDirectory(atPath: base + "/config", withIntermediateDirectories: true)
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
        env["PRIVATE_BUS"] = "1"
        env["ENGRAM_CONFIG_DIR"] = base + "/config"

        let out = try ChildPipe(), err = try ChildPipe()
        let run: ChildProcess
        do {
            defer { close(out.write); close(err.write) }
            // setsid: a process group of its own, as a terminal gives the command it runs.
            run = try ChildProcess.spawn("/usr/bin/setsid", [D.root + "/scripts/run-daemon.sh", D.engramBinary, demo],
                                         environment: env, stdout: out.write, stderr: err.write)
        }
        let output = LiveOutput(stdout: out.read, stderr: err.read)
        // setsid(1) makes the group once it runs: until then the child is still in ours.
        let ownGroup = await eventually { getpgid(run.pid) == run.pid }
        let group = run.pid
        defer {
            if !Self.running(inGroup: group).isEmpty { kill(-group, SIGKILL) }
            run.wait()
        }
        #expect(ownGroup, "run-daemon.sh is not in a process group of its own (group \(getpgid(run.pid)))")

        // It imports the samples into the empty folder and prints how to try it.
        #expect(await eventually(timeout: .seconds(120)) { output.stderr.contains("<6>ready ") }, "\(output.stdout)\n\(output.stderr)")
        let printed = output.stdout
        #expect(printed.contains("==> Importing the sample collection into \(demo)"))
        #expect(printed.range(of: #"Imported \d{3} memories"#, options: .regularExpression) != nil, "\(printed)")
        #expect(printed.contains("Ctrl+C stops it."))
        let lines = printed.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let export = try #require(lines.first { $0.hasPrefix("export DBUS_SESSION_BUS_ADDRESS=") }, "\(printed)")
        let call = try #require(lines.first { $0.contains("SearchProvider2.GetInitialResultSet") }, "\(printed)")

        // The printed lines work as printed, from another terminal: GNOME Shell's first call answers.
        var shellEnv = ProcessInfo.processInfo.environment
        shellEnv.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
        let tried = try Run.program("/bin/bash", ["-c", export + "\n" + call], environment: shellEnv)
        #expect(tried.status == 0, "\(tried.stderr)")
        #expect(tried.stdout.contains("'engram://memory/s106'"), "\(tried.stdout)")
        let initial = try Run.program("/bin/bash", ["-c", export + "\ngdbus call --session --dest org.engram.Engram --object-path "
                                                    + "/org/engram/Engram/SearchProvider --method org.gnome.Shell.SearchProvider2."
                                                    + "GetInitialResultSet \"['focaccia']\""], environment: shellEnv)
        #expect(initial.stdout.contains("'engram://memory/s165'"), "\(initial.stdout)\(initial.stderr)")

        // Ctrl+C: SIGINT to the whole group. The daemon commits and lets go, the private bus goes, nothing lingers.
        kill(-group, SIGINT)
        #expect(output.waitForEnd(seconds: 30), "still running after Ctrl+C: \(output.stderr)")
        #expect([0, 128 + SIGINT].contains(run.exitCode))
        #expect(await eventually { Self.running(inGroup: group).isEmpty }, "outlived Ctrl+C: \(Self.running(inGroup: group))")
        // The whole group gets SIGINT: the daemon hears it, or hears its private bus go first (both stop it cleanly).
        #expect(output.stderr.contains("<6>stopping signal=SIGINT") || output.stderr.contains("the session bus went away; stopping"),
                "\(output.stderr)")
        #expect(output.stderr.contains("<6>stopped; the index is committed and the name released"), "\(output.stderr)")
        var cli = env
        cli["ENGRAM_DATA_DIR"] = demo
        let status = try Run.program(D.engramBinary, ["index", "status", "--json"], environment: cli)
        #expect(status.stdout.contains("\"pending\":0"), "\(status.stdout)\(status.stderr)")
    }
}
