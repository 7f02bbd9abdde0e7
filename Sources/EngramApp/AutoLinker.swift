import EngramCore
import Foundation
import Indexer

/// Links each new memory to its nearest neighbours in the index (found by relevance feedback): the outbox's follower
/// after the index, keeping its own mark in the store.
///
/// The data flows one way: capture → store → outbox → index (the document applier, which never writes the store)
/// → the followers (these links; the meaning vectors, on their own queue: `Library.embedPending`) → commit event →
/// surfaces. The links and the auto-link mark are saved in one transaction per window of `[index] batch_size`
/// changes, so a crash between the index commit and the links makes the next pass link that window again, and the
/// outbox is pruned only up to the lowest mark (`Store.pruneOutbox`).
public struct AutoLinker {
    let store: Store
    let config: EngramConfig
    /// Finds a memory's neighbours: the index writer's relevance feedback.
    let related: (_ id: String, _ limit: Int, _ now: Date) throws -> [RelatedHit]
    /// Test hook reached after each window's links are saved ("after-autolink").
    var crashPoint: ((String) throws -> Void)?

    /// Auto-linking considers memories created less than this long ago (older ones are not new captures).
    static let freshness: TimeInterval = 3600
    /// At most this many new memories of each window are linked (each costs a relevance-feedback query).
    static let linksPerWindow = 200

    /// A linker that asks `writer` for neighbours.
    public init(store: Store, config: EngramConfig, writer: IndexWriter, crashPoint: ((String) throws -> Void)? = nil) {
        self.store = store
        self.config = config
        self.related = { id, limit, now in try writer.related(kind: .memory, id: id, limit: limit, now: now) }
        self.crashPoint = crashPoint
    }

    /// Links the new memories of the committed changes after the store's auto-link mark through `seq`, window by
    /// window. If the store cannot save a window, the mark stays there and the next pass tries again.
    public mutating func consume(through seq: Int64) throws -> Int {
        var linked = 0
        let window = Int64(max(config.indexBatchSize, 1))
        while let from = try? store.autoLinkedSeq(), from < seq {
            let to = min(seq, from + window)
            guard let made = link(after: from, through: to) else { break }
            linked += made
            try crashPoint?("after-autolink")
        }
        return linked
    }

    /// Links one window's new memories and moves the mark past it; nil when the store could not save them.
    private func link(after from: Int64, through to: Int64) -> Int? {
        var links: [(from: String, to: [(id: String, weight: Double)])] = []
        if config.autoLinkCount > 0 {
            let now = store.clock()
            let candidates = (try? store.autoLinkCandidates(after: from, through: to, createdAfter: now.addingTimeInterval(-Self.freshness))) ?? []
            for candidate in candidates.prefix(Self.linksPerWindow) {
                guard let hits = try? related(candidate.id, config.autoLinkCount, now) else { continue }
                let strong = hits.filter { $0.score >= config.autoLinkMinScore && $0.id != candidate.id }.map { (id: $0.id, weight: $0.score) }
                if !strong.isEmpty { links.append((candidate.id, strong)) }
            }
        }
        guard (try? store.recordAutoLinks(links, through: to)) != nil else { return nil }
        return links.reduce(0) { $0 + $1.to.count }
    }
}
