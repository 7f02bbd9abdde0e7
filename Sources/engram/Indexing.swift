import Daemon
import EngramCore
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
            return true
        case .busy:
            if case .synced = DaemonClient().sync() { return true }
            return false
        }
    }
}
