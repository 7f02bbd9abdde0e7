import EngramCore
import Foundation
import EngramApp
import Indexer

/// Who holds the index's writer when this process cannot take it: the daemon, or another process.
public struct IndexHolder: CustomStringConvertible, Sendable, Equatable {
    /// The holder's process id, when it can be told.
    public var pid: pid_t?
    /// Whether the holder is the daemon (the owner of org.engram.Engram on the session bus).
    public var isDaemon: Bool
    /// The holder's program name, from /proc, with control characters replaced (any process may name itself).
    public var program: String?

    /// A holder as given.
    public init(pid: pid_t?, isDaemon: Bool, program: String? = nil) {
        self.pid = pid
        self.isDaemon = isDaemon
        self.program = program
    }

    /// The holder told from the writer lock's process and the daemon's: the daemon when they are the same, or
    /// when the lock's process cannot be told and a daemon runs.
    public init(writer: pid_t?, daemon: pid_t?) {
        let isDaemon = daemon != nil && (writer == nil || writer == daemon)
        let pid = isDaemon ? daemon : writer
        self.init(pid: pid, isDaemon: isDaemon, program: pid.flatMap(Self.program(of:)))
    }

    /// The daemon, with its process id when it can be told.
    public static func daemon(pid: pid_t?) -> IndexHolder {
        IndexHolder(pid: pid, isDaemon: true, program: pid.flatMap(program(of:)))
    }

    /// Finds the holder of `library`'s index writer, asking the bus for the daemon's process.
    public init(of library: Library, daemon: DaemonClient = DaemonClient()) {
        self.init(writer: IndexLayout.writerHolder(forStub: library.paths.indexPath), daemon: daemon.daemonPID())
    }

    /// "the daemon (pid 123)", "another process (pid 456, python3)" or "another process".
    public var description: String {
        if isDaemon { return "the daemon" + (pid.map { " (pid \($0))" } ?? "") }
        guard let pid else { return "another process" }
        return "another process (pid \(pid)" + (program.map { ", " + $0 } ?? "") + ")"
    }

    /// The description starting with a capital, to open a sentence.
    public var capitalized: String { description.prefix(1).uppercased() + description.dropFirst() }

    /// The name process `pid` gave itself, made safe to print: an escape sequence in it must not drive a terminal.
    static func program(of pid: pid_t) -> String? {
        guard let comm = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8) else { return nil }
        let name = comm.trimmingCharacters(in: .whitespacesAndNewlines).unicodeScalars.map { scalar in
            scalar.properties.generalCategory == .control ? "\u{FFFD}" : scalar
        }
        return String(String.UnicodeScalarView(name))
    }
}
