import Daemon
import EngramCore
import Foundation
import Indexer

/// Making a change searchable: apply it here, or, when the daemon holds the index, nudge the daemon.
enum Indexing {
    /// Applies pending changes, or asks a running daemon to (without ever starting one).
    ///
    /// Returns true when the changes are searchable now, false when they will be in a moment.
    @discardableResult
    static func applyOrNudge(_ library: Library) throws -> Bool {
        switch try library.applyPending() {
        case .applied:
            // A few new items get their meaning vectors here; many are left to the daemon or `engram index embed`.
            _ = try? library.embedPending(upTo: Library.inlineEmbedLimit)
            return true
        case .busy:
            if case .synced = DaemonClient().sync() { return true }
            return false
        }
    }
}

/// Who holds the index's writer, for messages when it is busy.
struct IndexHolder: CustomStringConvertible {
    /// The holder's process id, when it can be told.
    var pid: pid_t?
    /// Whether the holder is the daemon (the owner of org.engram.Engram on the session bus).
    var isDaemon: Bool
    /// The holder's program name, from /proc.
    var program: String?

    /// Finds the holder of `library`'s index writer.
    init(of library: Library) {
        pid = IndexLayout.writerHolder(forStub: library.paths.indexPath)
        let daemon = DaemonClient().daemonPID()
        isDaemon = daemon != nil && (pid == nil || pid == daemon)
        if isDaemon { pid = daemon }
        // Any local process may name itself (prctl), escape sequences included: shown only made safe.
        program = pid.flatMap { try? String(contentsOfFile: "/proc/\($0)/comm", encoding: .utf8) }
            .map { Terminal.safe($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// "the daemon (pid 123)", "another process (pid 456, python3)" or "another process".
    var description: String {
        if isDaemon { return "the daemon" + (pid.map { " (pid \($0))" } ?? "") }
        guard let pid else { return "another process" }
        return "another process (pid \(pid)" + (program.map { ", " + $0 } ?? "") + ")"
    }

    /// The description starting with a capital, to open a sentence.
    var capitalized: String { description.prefix(1).uppercased() + description.dropFirst() }
}
