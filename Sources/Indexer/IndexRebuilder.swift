import CXapian
import Foundation

/// Rebuilds the index from scratch into a new generation and swaps it in atomically.
///
/// While it runs, the current generation's write lock is held, so no other writer can
/// change the index that is being replaced (close your `IndexWriter` first; this throws
/// `.locked` otherwise, and a writer opened before the swap must be reopened after it).
/// Readers keep answering from the old generation until they `reopen()`; the old
/// generation's files are removed after the swap.
public final class IndexRebuilder {
    /// The stub path of the index to rebuild (see `IndexLayout`).
    public let stubPath: String
    /// How many documents are indexed between progress reports.
    public var progressInterval = 256
    /// How many cores a large rebuild uses (shards indexed at once, then compacted into one).
    public var threads = min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 4)
    /// Rebuilds of fewer documents than this index on one thread, where sharding costs more than it saves.
    public var parallelThreshold = 4000
    /// Test hook: called at "rebuild-before-swap" (the new generation is committed) and "rebuild-after-swap"
    /// (the stub names it, the old generation is not removed yet) to simulate crashes.
    public var crashPoint: ((String) throws -> Void)?

    /// Creates a rebuilder for the index whose stub is at stubPath.
    public init(stubPath: String) {
        self.stubPath = stubPath
    }

    /// Rebuilds from a collection of documents; see `rebuild(from:count:lastAppliedSeq:progress:)`.
    public func rebuild<C: Collection>(
        from documents: C,
        lastAppliedSeq: Int64,
        progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) throws where C.Element == IndexDocument {
        try rebuild(from: documents, count: documents.count, lastAppliedSeq: lastAppliedSeq, progress: progress)
    }

    /// Indexes documents into a fresh generation, records lastAppliedSeq, commits, then swaps the stub to it.
    ///
    /// `count` is the expected total for progress reports; `progress(done, total)` is called
    /// every `progressInterval` documents and once at the end. On failure the index in use
    /// is left untouched and the partial generation is removed.
    public func rebuild<S: Sequence>(
        from documents: S,
        count: Int,
        lastAppliedSeq: Int64,
        progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) throws where S.Element == IndexDocument {
        var isDirectory: ObjCBool = false
        let stubExists = FileManager.default.fileExists(atPath: stubPath, isDirectory: &isDirectory)
        if stubExists && isDirectory.boolValue {
            throw IndexError.invalidArgument("\(stubPath) is a database directory, not an index stub file; it cannot be swapped")
        }
        // Holding the current generation's lock keeps other writers out until the swap is done.
        // An index that cannot be opened (deleted generation, damaged stub or tables) has nothing to protect.
        var currentLock: IndexWriter?
        if stubExists {
            do {
                currentLock = try IndexWriter.open(at: stubPath, create: false)
            } catch let error as IndexError {
                switch error {
                case .corrupt, .notFound, .io: currentLock = nil
                default: throw error
                }
            }
        }
        defer { currentLock?.close() }
        try IndexLayout.makePrivateDirectory((stubPath as NSString).deletingLastPathComponent)

        let name = try IndexLayout.makeGeneration(forStub: stubPath)
        let generation = IndexLayout.generationPath(forStub: stubPath, name: name)
        do {
            if threads > 1 && count >= parallelThreshold {
                try buildInParallel(Array(documents), at: generation, lastAppliedSeq: lastAppliedSeq, progress: progress)
            } else {
                try buildSequentially(documents, count: count, at: generation, lastAppliedSeq: lastAppliedSeq, progress: progress)
            }
        } catch {
            try? FileManager.default.removeItem(atPath: generation)
            throw error
        }
        do {
            try crashPoint?("rebuild-before-swap")
            try IndexLayout.swapStub(stubPath, toGeneration: name)
        } catch {
            try? FileManager.default.removeItem(atPath: generation)
            throw error
        }
        try crashPoint?("rebuild-after-swap")
        // Only older generations: a newer one may belong to a rebuild that started after the swap.
        let number = Int(name) ?? 0
        for old in IndexLayout.generations(forStub: stubPath) where (Int(old) ?? 0) < number {
            try? FileManager.default.removeItem(atPath: IndexLayout.generationPath(forStub: stubPath, name: old))
        }
    }

    /// One writer, one document at a time (small rebuilds).
    private func buildSequentially<S: Sequence>(
        _ documents: S, count: Int, at generation: String, lastAppliedSeq: Int64, progress: (_ done: Int, _ total: Int) -> Void
    ) throws where S.Element == IndexDocument {
        let writer = try IndexWriter.open(at: generation, create: true)
        defer { writer.close() }
        var done = 0
        for document in documents {
            try writer.upsert(document)
            done += 1
            if done % max(progressInterval, 1) == 0 { progress(done, max(count, done)) }
        }
        try writer.commit(lastAppliedSeq: lastAppliedSeq)
        progress(done, max(count, done))
    }

    /// Shards indexed on `threads` cores at once, then compacted into the generation (large rebuilds).
    private func buildInParallel(
        _ documents: [IndexDocument], at generation: String, lastAppliedSeq: Int64, progress: (_ done: Int, _ total: Int) -> Void
    ) throws {
        let arena = ByteArena()
        var days = IndexWriter.DayCache()
        let fields = documents.map { IndexWriter.fields(for: $0, in: arena, days: &days) }
        progress(0, documents.count)
        try fields.withUnsafeBufferPointer { buffer in
            try shimCall { cx_build_database(generation, buffer.baseAddress, buffer.count, lastAppliedSeq, UInt32(threads), $0) }
        }
        progress(documents.count, documents.count)
    }
}
