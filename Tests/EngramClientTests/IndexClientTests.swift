import EngramClient
import EngramCore
import EngramTestSupport
import Foundation
import EngramApp
import Indexer
import Testing

/// The client's decisions with no daemon on any bus: the writer free, or held by another process.
@Suite("Index client")
struct IndexClientTests {
    /// A client that finds no session bus, so it never reaches a real daemon.
    let client = IndexClient(daemon: DaemonClient(environment: [:]))

    @Test func aFreeWriterAppliesChangesHere() throws {
        let (library, directory) = try Self.library()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try library.store.remember(MemoryDraft(content: "applied in this very process: wombat"))
        let outcome = try client.makeSearchable(library)
        #expect(outcome == .appliedHere && outcome.isSearchable)
        #expect(try library.status().pending == 0)
    }

    @Test func aHeldWriterNamesTheProcessThatWillApplyThem() throws {
        let (library, directory) = try Self.library()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try client.makeSearchable(library)
        let holder = try Self.holdWriter(of: library)
        defer { holder.kill() }
        _ = try library.store.remember(MemoryDraft(content: "saved while another process holds the writer: quokka"))
        let outcome = try client.makeSearchable(library)
        // Its name is an escape sequence (any process may name itself): the holder carries it defused.
        let expected = IndexHolder(pid: holder.pid, isDaemon: false, program: "\u{FFFD}[2Jholder")
        #expect(outcome == .willBeApplied(by: expected))
        #expect(!outcome.isSearchable)
        #expect(expected.description == "another process (pid \(holder.pid), \u{FFFD}[2Jholder)")
    }

    @Test func aRebuildRunsHereOrNamesTheHolderThatIsNotTheDaemon() throws {
        let (library, directory) = try Self.library()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try library.store.remember(MemoryDraft(content: "one memory to rebuild"))
        let built = try client.rebuild(library, askingDaemon: { _ in Issue.record("asked a daemon that does not run") })
        #expect(built.items == 1 && built.site == .here)
        let holder = try Self.holdWriter(of: library)
        defer { holder.kill() }
        #expect {
            try client.rebuild(library, askingDaemon: { _ in Issue.record("asked a daemon that does not run") })
        } throws: { error in
            guard case IndexError.locked(let message) = error else { return false }
            return message.hasPrefix("another process (pid \(holder.pid), ") && message.hasSuffix("try again when it is done")
        }
    }

    @Test("the holder is the daemon when it holds the lock, or when the lock's process cannot be told", arguments: [
        (writer: pid_t?(7), daemon: pid_t?(7), isDaemon: true, pid: pid_t?(7)),
        (writer: nil, daemon: 7, isDaemon: true, pid: 7),
        (writer: 8, daemon: 7, isDaemon: false, pid: 8),
        (writer: 8, daemon: nil, isDaemon: false, pid: 8),
        (writer: nil, daemon: nil, isDaemon: false, pid: nil),
    ])
    func theHolderIsToldFromTheLockAndTheDaemon(_ c: (writer: pid_t?, daemon: pid_t?, isDaemon: Bool, pid: pid_t?)) {
        let holder = IndexHolder(writer: c.writer, daemon: c.daemon)
        #expect(holder.isDaemon == c.isDaemon && holder.pid == c.pid)
    }

    @Test func aHolderSaysWhoItIs() {
        #expect(IndexHolder(pid: 12, isDaemon: true).capitalized == "The daemon (pid 12)")
        #expect(IndexHolder.daemon(pid: nil).description == "the daemon")
        #expect(IndexHolder(pid: 34, isDaemon: false, program: "python3").description == "another process (pid 34, python3)")
        #expect(IndexHolder(pid: nil, isDaemon: false).capitalized == "Another process")
    }

    /// A library in a fresh temporary directory, and the directory to remove.
    static func library() throws -> (Library, String) {
        let directory = FileManager.default.temporaryDirectory.path + "/engram-client-\(UUID().uuidString)"
        let paths = EngramPaths(dataDirectory: directory + "/data", configDirectory: directory + "/config",
                                runtimeDirectory: directory + "/run")
        return (try Library(paths: paths), directory)
    }

    /// Starts another process that takes `library`'s index writer, as the daemon would, and keeps it; it says so in
    /// one write, as the pipe closes once read.
    static func holdWriter(of library: Library) throws -> ChildProcess {
        let ready = try ChildPipe()
        let script = "import ctypes, os, sys, time, xapian\nctypes.CDLL(None).prctl(15, b'\\x1b[2Jholder', 0, 0, 0)\n"
            + "db = xapian.WritableDatabase(sys.argv[1], xapian.DB_OPEN)\nos.write(1, b'held')\ntime.sleep(60)"
        let child = try ChildProcess.spawn("/usr/bin/python3", ["-c", script, library.paths.indexPath],
                                           environment: ProcessInfo.processInfo.environment, stdout: ready.write)
        close(ready.write)
        defer { close(ready.read) }
        var buffer = [UInt8](repeating: 0, count: 16)
        guard read(ready.read, &buffer, buffer.count) > 0 else { child.kill(); throw TestError("the holder did not start") }
        return child
    }
}
