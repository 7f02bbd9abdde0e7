import EngramCore
import Foundation
import Indexer
import Meaning
import Synchronization

/// One person's Engram: paths, config, store and index, with the operations every front end shares.
public final class Library: @unchecked Sendable {
    public let paths: EngramPaths
    public let config: EngramConfig
    public let store: Store

    /// The embedder's vectors in memory, kept between passes (passes run one at a time: the daemon's embed queue,
    /// or a command's own).
    private let embedVectors = Mutex<VectorCache?>(nil)

    func embeddingVectors(dimension: Int) -> VectorCache {
        embedVectors.withLock { cache in
            if let cache, cache.dimension == dimension { return cache }
            let fresh = VectorCache(store: store, dimension: dimension)
            cache = fresh
            return fresh
        }
    }

    /// Opens the library at `paths` (creating the private data folder and store if needed).
    public init(paths: EngramPaths, clock: @escaping @Sendable () -> Date = { .wallNow }) throws {
        self.paths = paths
        self.config = try EngramConfig.load(from: paths.configPath)
        self.store = try Store(path: paths.storePath, clock: clock)
        publishSessionChanges()
    }

    /// The crash hook of the project's tests (`TestHooks`), reached at the applier's and rebuild's named points.
    public static let crashHook = TestHooks.crashHook

    /// Whether an index has been built yet.
    public var indexExists: Bool { FileManager.default.fileExists(atPath: paths.indexPath) }

    /// The result of trying to apply the outbox.
    public enum ApplyOutcome: Sendable, Equatable {
        /// This process held the writer and applied what was pending.
        case applied(ApplyReport)
        /// Another process (usually the daemon) holds the writer; it will apply the outbox.
        case busy
    }

    /// Applies pending captures to the index if no other process holds the writer; never waits for it.
    ///
    /// A missing or damaged index is rebuilt from the store first (saying so through `notice`): a deleted index
    /// would otherwise be created empty, and the outbox no longer holds what it had.
    public func applyPending(progress: ((Int, Int) -> Void)? = nil) throws -> ApplyOutcome {
        try applyPending(progress: progress, repairing: true)
    }

    private func applyPending(progress: ((Int, Int) -> Void)?, repairing: Bool) throws -> ApplyOutcome {
        if repairing, try missingIndexNeedsRebuild() {
            return try repair("it is missing", progress: progress)
        }
        let writer: IndexWriter
        do {
            writer = try IndexWriter.open(at: paths.indexPath, create: true)
        } catch IndexError.locked {
            return .busy
        } catch let error where repairing && Self.isDamage(error, opening: true) {
            return try repair("\(error)", progress: progress)
        }
        do {
            defer { writer.close() }
            // Holding the writer, no rebuild is under way: generations other than the current one were left by a
            // rebuild that stopped before its swap or before removing the old one.
            IndexLayout.removeOtherGenerations(forStub: paths.indexPath)
            if repairing, try indexMissesChanges(writer) {
                writer.close()
                return try repair("it holds fewer changes than the store has made", progress: progress)
            }
            if let pending = try bulkBuildSize(writer) {
                writer.close()
                return try buildInBulk(pending: pending, progress: progress)
            }
            let report = try apply(with: writer, progress: progress)
            // A command is short-lived: it compacts away forgotten items' bytes now, before it exits.
            if try writer.compactionDue() != nil {
                writer.close()
                try compactIndex()
            }
            return .applied(report)
        } catch let error where repairing && Self.isDamage(error, opening: false) {
            return try repair("\(error)", progress: progress)
        }
    }

    /// One pass with a held writer, as commands and the daemon's keeper run it: the outbox into the index, then
    /// what follows the index (`followIndex`).
    public func apply(with writer: IndexWriter, progress: ((Int, Int) -> Void)? = nil) throws -> ApplyReport {
        var report = try indexOutbox(with: writer, progress: progress)
        report.linked = try followIndex(writer)
        return report
    }

    /// The outbox into the index, batch by batch (the document applier; it never writes the store).
    public func indexOutbox(with writer: IndexWriter, progress: ((Int, Int) -> Void)? = nil) throws -> ApplyReport {
        var applier = OutboxApplier(store: store, config: config)
        applier.progress = progress
        applier.crashPoint = Self.crashHook
        return try applier.apply(with: writer)
    }

    /// The outbox's consumers after the index: new memories linked to their neighbours, one window of
    /// `[index] batch_size` changes at a time, and the outbox pruned after each window up to the lowest mark (the
    /// index's, the links', the vectors'). Vectors follow on their own queue (`embedPending`). Returns the links made.
    @discardableResult
    public func followIndex(_ writer: IndexWriter) throws -> Int {
        let seq = try writer.lastAppliedSeq()
        var linker = AutoLinker(store: store, config: config, writer: writer, crashPoint: Self.crashHook)
        let window = Int64(max(config.indexBatchSize, 1))
        var linked = 0
        var through = try store.autoLinkedSeq()
        repeat {
            through = min(seq, through + window)
            linked += try linker.consume(through: through)
            guard try store.outboxHolds(through: through) else { continue }
            try? store.pruneOutbox(through: through)
            try Self.crashHook?("after-prune")
        } while through < seq
        return linked
    }

    /// Whether an index error means the index itself is missing or damaged, so that rebuilding it from the store
    /// repairs it. Input/output errors count only when opening (a full disk at commit time is not damage).
    public static func isDamage(_ error: any Error, opening: Bool) -> Bool {
        switch error as? IndexError {
        case .corrupt?, .notFound?: return true
        case .io?: return opening
        default: return false
        }
    }

    /// Whether the index is missing although the store has changes the outbox no longer holds (an index existed
    /// and was deleted): creating it empty and applying the outbox would then leave those items out.
    public func missingIndexNeedsRebuild() throws -> Bool {
        guard !indexExists else { return false }
        return try store.latestOutboxSeq() > Int64(try store.pendingOutboxCount(after: 0))
    }

    /// Whether the index lacks changes the outbox can no longer bring (its tables were lost or emptied, or an old
    /// copy was restored): the outbox is pruned only up to what an index committed, so every change after the
    /// index's last applied one must still be there.
    public func indexMissesChanges(_ writer: IndexWriter) throws -> Bool {
        let seq = try writer.lastAppliedSeq()
        let latest = try store.latestOutboxSeq()
        guard latest > seq else { return false }
        return Int64(try store.pendingOutboxCount(after: seq)) < latest - seq
    }

    /// Where notices about repairs go (the daemon sends them to its log); standard error by default.
    public var notice: @Sendable (String) -> Void {
        get { noticeLock.withLock { noticeHandler } }
        set { noticeLock.withLock { noticeHandler = newValue } }
    }
    private let noticeLock = NSLock()
    private var noticeHandler: @Sendable (String) -> Void = { message in
        FileHandle.standardError.write(Data(("engram: " + message + "\n").utf8))
    }

    /// Rebuilds a missing or damaged index, saying why.
    private func repair(_ why: String, progress: ((Int, Int) -> Void)?) throws -> ApplyOutcome {
        notice("the search index is missing or damaged (\(why)); rebuilding it from the store…")
        do {
            return .applied(try rebuild(progress: progress))
        } catch IndexError.locked {
            return .busy
        }
    }

    /// How many changes are waiting when the index is empty and has applied nothing yet and so many are waiting
    /// that building it whole (on every core, as a rebuild does) beats applying them one by one; else nil.
    private func bulkBuildSize(_ writer: IndexWriter) throws -> Int? {
        guard try writer.lastAppliedSeq() == 0, try writer.documentCount(kind: nil) == 0 else { return nil }
        let pending = try store.pendingOutboxCount(after: 0)
        return pending >= Self.bulkThreshold ?? IndexRebuilder(stubPath: paths.indexPath).parallelThreshold ? pending : nil
    }

    /// Crash-safety tests take the first-import fast path from fewer waiting changes (`TestHooks`).
    static let bulkThreshold = TestHooks.current.bulkThreshold

    /// Builds a fresh index from a snapshot of the store (the first import into a new collection); the new
    /// memories are then linked from the outbox as after any pass (see `followIndex`).
    private func buildInBulk(pending: Int, progress: ((Int, Int) -> Void)?) throws -> ApplyOutcome {
        do {
            var report = try rebuild(progress: progress)
            report.applied += pending
            return .applied(report)
        } catch IndexError.locked {
            return .busy
        }
    }

    /// Opens a reader, building the index first when there is none, and rebuilding it when it is damaged.
    public func openReader(notice: ((String) -> Void)? = nil) throws -> IndexReader {
        if try !indexExists || missingIndexNeedsRebuild() { _ = try applyPending() }
        do {
            return try IndexReader.open(at: paths.indexPath)
        } catch let e as IndexError {
            switch e {
            case .corrupt, .notFound, .io:
                notice?("the search index is missing or damaged (\(e)); rebuilding it from the store…")
                _ = try rebuild()
                return try IndexReader.open(at: paths.indexPath)
            default:
                throw e
            }
        }
    }

    /// Builds a fresh index from the store and swaps it in atomically; captures made meanwhile are applied after.
    @discardableResult
    public func rebuild(progress: ((Int, Int) -> Void)? = nil) throws -> ApplyReport {
        // The rebuilder holds the current generation's writer lock until the swap, so no one applies to it meanwhile.
        let snapshot = try store.indexSnapshot()
        var docs: [IndexDocument] = []
        docs.reserveCapacity(snapshot.memories.count + snapshot.curricula.count + snapshot.topics.count)
        docs += snapshot.memories.map { StoreMapping.document(for: $0, decay: config.decay) }
        docs += snapshot.curricula.map(StoreMapping.document(for:))
        docs += snapshot.topics.map(StoreMapping.document(for:))
        try IndexLayout.makePrivateDirectory(paths.dataDirectory)
        let rebuilder = IndexRebuilder(stubPath: paths.indexPath)
        rebuilder.crashPoint = Self.crashHook
        try rebuilder.rebuild(from: docs, lastAppliedSeq: snapshot.seq, progress: progress ?? { _, _ in })
        try? store.pruneOutbox(through: snapshot.seq)
        var report = ApplyReport()
        report.upserted = docs.count
        report.lastSeq = snapshot.seq
        // Applies what came after the snapshot, and links the snapshot's new memories (the outbox keeps them).
        if case .applied(let more) = try applyPending(progress: nil, repairing: false) {
            report.applied = more.applied
            report.linked = more.linked
            report.lastSeq = max(report.lastSeq, more.lastSeq)
        }
        return report
    }

    /// Compacts the index into a new generation (see `IndexCompactor`); hold no writer. A busy writer is left alone:
    /// its holder (the daemon) compacts, as the due mark in the index tells it to.
    public func compactIndex() throws {
        do {
            try IndexCompactor.compact(stubPath: paths.indexPath)
        } catch IndexError.locked {
            return
        }
    }

    /// Removes faded items from the index now (they are already hidden from search); nil if the writer is busy.
    public func sweepExpired() throws -> Int? {
        let writer: IndexWriter
        do {
            writer = try IndexWriter.open(at: paths.indexPath, create: true)
        } catch IndexError.locked {
            return nil
        }
        defer { writer.close() }
        _ = try apply(with: writer)
        let removed = try writer.sweepExpired(now: store.clock())
        try writer.commit(lastAppliedSeq: try writer.lastAppliedSeq())
        return removed.count
    }
}
