import EngramCore
import Foundation
import EngramApp
import Indexer

/// Makes changes searchable and rebuilds the index wherever its writer is: in this process when the writer is
/// free, through the daemon over D-Bus when it holds it. Never starts a daemon.
public struct IndexClient: Sendable {
    /// Who made the store's changes searchable, or who will.
    public enum Outcome: Sendable, Equatable {
        /// This process held the writer and applied them: searchable now.
        case appliedHere
        /// The daemon holds the writer and applied them when asked: searchable now.
        case appliedByDaemon
        /// Not applied yet; `holder` applies them on its own: the daemon when it did not finish in time, another
        /// process when no daemon runs.
        case willBeApplied(by: IndexHolder)

        /// Whether the changes are searchable now.
        public var isSearchable: Bool {
            if case .willBeApplied = self { return false }
            return true
        }
    }

    /// Where a rebuild ran.
    public enum RebuildSite: Sendable, Equatable {
        /// In this process.
        case here
        /// In the daemon, which held the writer and kept answering searches meanwhile.
        case daemon(IndexHolder)
    }

    /// The daemon this client asks when another process holds the writer.
    public var daemon: DaemonClient

    /// A client asking `daemon` (by default, the one on this session's bus).
    public init(daemon: DaemonClient = DaemonClient()) {
        self.daemon = daemon
    }

    /// Applies pending changes here, or asks a running daemon to and waits up to `daemonTimeout` for it.
    ///
    /// Changes applied here also get their meaning vectors when only a few wait (`Library.inlineEmbedLimit`) unless
    /// `embedInline` is false; more are left to the daemon or `engram index embed`.
    @discardableResult
    public func makeSearchable(_ library: Library, progress: ((Int, Int) -> Void)? = nil,
                               daemonTimeout: Duration = .milliseconds(500), embedInline: Bool = true) throws -> Outcome {
        switch try library.applyPending(progress: progress) {
        case .applied:
            if embedInline { _ = try? library.embedPending(upTo: Library.inlineEmbedLimit) }
            return .appliedHere
        case .busy:
            switch daemon.sync(timeout: daemonTimeout) {
            case .synced:
                return .appliedByDaemon
            case .notRunning:
                return .willBeApplied(by: IndexHolder(writer: IndexLayout.writerHolder(forStub: library.paths.indexPath), daemon: nil))
            case .failed:
                // The daemon was reached but did not finish in time; it applies them on its own.
                return .willBeApplied(by: .daemon(pid: daemon.daemonPID()))
            }
        }
    }

    /// Rebuilds the index here when the writer is free, else has the daemon rebuild it (calling `askingDaemon`
    /// first, as that can take a while); returns the number of items and where it ran.
    ///
    /// Throws `IndexError.locked` naming the holder when another process than the daemon holds the writer.
    public func rebuild(_ library: Library, progress: ((Int, Int) -> Void)? = nil,
                        askingDaemon: (IndexHolder) -> Void = { _ in }) throws -> (items: Int, site: RebuildSite) {
        do {
            return (try library.rebuild(progress: progress).upserted, .here)
        } catch IndexError.locked {
            let holder = IndexHolder(of: library, daemon: daemon)
            guard holder.isDaemon else { throw IndexError.locked("\(holder) holds the index; try again when it is done") }
            askingDaemon(holder)
            guard let items = try daemon.rebuild() else { throw IndexError.locked("\(holder) holds the index") }
            return (items, .daemon(holder))
        }
    }
}
