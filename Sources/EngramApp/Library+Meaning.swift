import EngramCore
import Foundation
import Indexer
import Meaning

extension Library {
    /// The embedder for this library's config, or why meaning search is off.
    public var meaningModel: Result<any Embedder, MeaningUnavailable> { MeaningModel.embedder(for: config) }

    /// Meaning search over this library's vectors, or nil while it is off or the store is empty. Before the first
    /// pass has embedded anything, the best word hits are embedded as they are found (`MeaningSearch.neighbours`).
    public func meaningSearch() -> MeaningSearch? {
        guard case .success(let embedder) = meaningModel,
              (try? store.vectorCount()) ?? 0 > 0 || (try? store.itemCount()) ?? 0 > 0 else { return nil }
        return MeaningSearch(store: store, embedder: embedder)
    }

    /// Items a command embeds itself after applying the outbox; more are left to the daemon or `engram index embed`
    /// (an import of thousands would otherwise wait minutes).
    public static let inlineEmbedLimit = 16

    /// Brings the vectors up to the store (whoever holds the index writer calls it, after the words are searchable).
    ///
    /// With `upTo`, does nothing when more items than that wait (returns nil): the daemon embeds them in the
    /// background, or `engram index embed` with progress. While meaning search is off, releases the outbox.
    @discardableResult
    public func embedPending(upTo limit: Int? = nil, background: Bool = false,
                             progress: ((Int, Int) -> Void)? = nil) throws -> MeaningIndexer.Report? {
        guard case .success(let embedder) = meaningModel else {
            if try store.vectorMark() != nil { try store.releaseVectorMark() }
            return nil
        }
        if let limit, try embeddingBacklog() > limit { return nil }
        if background, let e5 = embedder as? E5Embedder { e5.runInBackground() }
        var indexer = MeaningIndexer(store: store, embedder: embedder)
        indexer.vectors = embeddingVectors(dimension: embedder.dimension)
        indexer.progress = progress
        indexer.crashPoint = Self.crashHook
        return try indexer.run()
    }

    /// How many items wait for a vector: pending outbox entries past the mark, or every item when there is no mark.
    public func embeddingBacklog() throws -> Int {
        // Items without a vector (a first pass stopped half-way leaves the outbox already pruned), and changes since
        // the mark (edits to items that have an older vector).
        let missing = max(0, try store.itemCount() - store.vectorCount())
        if let mark = try store.vectorMark(), try store.vectorModel() == (try? meaningModel.get())?.modelID {
            return max(missing, try store.pendingOutboxCount(after: mark))
        }
        return try store.itemCount()
    }

    /// Meaning search's state, for `engram index status`.
    public func meaningStatus() throws -> MeaningStatus {
        switch meaningModel {
        case .failure(let why):
            return MeaningStatus(on: false, reason: why.reason, model: nil, embedded: try store.vectorCount(), waiting: 0)
        case .success(let embedder):
            return MeaningStatus(on: true, reason: nil, model: embedder.modelID, embedded: try store.vectorCount(),
                                 waiting: try embeddingBacklog())
        }
    }
}

/// Whether meaning search is on, why not, and how far the vectors are.
public struct MeaningStatus: Sendable, Codable, Equatable {
    public var on: Bool
    public var reason: String?
    public var model: String?
    /// Items with a vector.
    public var embedded: Int
    /// Items waiting for one.
    public var waiting: Int
}
