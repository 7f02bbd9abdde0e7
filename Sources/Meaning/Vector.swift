import EngramCore
import Foundation

/// Vector arithmetic and the stored form: a Float32 scale followed by one Int8 per component (384 + 4 bytes for
/// e5-small instead of 1,536), which keeps the cosine order of unit vectors to well under a rank.
public enum Vector {
    /// The vector divided by its length (a zero vector stays zero).
    public static func normalized(_ v: [Float]) -> [Float] {
        let norm = v.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return norm > 0 ? v.map { $0 / norm } : v
    }

    /// The stored form of a vector.
    public static func encode(_ v: [Float]) -> Data {
        let largest = v.reduce(0) { max($0, abs($1)) }
        let scale: Float = largest > 0 ? largest / 127 : 1
        var data = Data(count: 4 + v.count)
        data.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: scale.bitPattern.littleEndian, toByteOffset: 0, as: UInt32.self)
            for (i, x) in v.enumerated() {
                raw.storeBytes(of: Int8(clamping: Int((x / scale).rounded())), toByteOffset: 4 + i, as: Int8.self)
            }
        }
        return data
    }

    /// The stored form of a long text's vectors, one per passage (`Passages`), the first (the text's opening) first:
    /// their stored forms one after the other.
    public static func encode(passages: [[Float]]) -> Data {
        passages.reduce(into: Data()) { $0.append(encode($1)) }
    }

    /// The item's own vector (its first passage's) back from its stored form, or nil if the data is not a whole
    /// number of `dimension`-component vectors.
    public static func decode(_ data: Data, dimension: Int) -> (scale: Float, components: [Int8])? {
        decodeAll(data, dimension: dimension)?.first
    }

    /// Every passage's vector back from the stored form, or nil if the data is not a whole number of
    /// `dimension`-component vectors.
    public static func decodeAll(_ data: Data, dimension: Int) -> [(scale: Float, components: [Int8])]? {
        let size = 4 + dimension
        guard dimension > 0, !data.isEmpty, data.count % size == 0 else { return nil }
        return data.withUnsafeBytes { raw in
            stride(from: 0, to: data.count, by: size).map { base in
                let scale = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: base, as: UInt32.self)))
                return (scale, (0..<dimension).map { raw.load(fromByteOffset: base + 4 + $0, as: Int8.self) })
            }
        }
    }
}

/// Every stored vector in memory for brute-force nearest neighbours (personal scale needs no ANN index:
/// 63,000 vectors of 384 components are 24 MB and a few milliseconds to scan). A long text has a row per passage;
/// an item is as near as its nearest passage, and is listed once.
public final class VectorIndex: @unchecked Sendable {
    public let dimension: Int
    /// `kind:id` of each row, in storage order ("" for a row given up by an edit that changed its passage count).
    public private(set) var keys: [String] = []
    private var scales: [Float] = []
    private var components: [Int8] = []
    /// The rows of each key.
    private var rowsOfKey: [String: [Int]] = [:]
    /// Rows given up (their items' passages changed in number): they never score.
    private var deadRows = 0

    /// Builds the index from stored vectors, skipping any of another dimension.
    public init(_ stored: [StoredVectorLike], dimension: Int) {
        self.dimension = dimension
        keys.reserveCapacity(stored.count)
        components.reserveCapacity(stored.count * dimension)
        for s in stored { append(s) }
    }

    /// How many items have vectors.
    public var count: Int { rowsOfKey.count }

    /// Whether the item `kind:id` has a vector.
    public func contains(_ key: String) -> Bool { rowsOfKey[key] != nil }

    private func append(_ s: StoredVectorLike) {
        guard let passages = Vector.decodeAll(s.data, dimension: dimension) else { return }
        var rows: [Int] = []
        for v in passages {
            rows.append(keys.count)
            keys.append(s.key)
            scales.append(v.scale)
            components.append(contentsOf: v.components)
        }
        rowsOfKey[s.key] = rows
    }

    /// Adds vectors, replacing those of the same keys (an edited note's new vectors): in place when the number of
    /// passages is the same, else the old rows are given up and the new ones added.
    public func upsert(_ stored: [StoredVectorLike]) {
        for s in stored {
            guard let passages = Vector.decodeAll(s.data, dimension: dimension) else { continue }
            if let rows = rowsOfKey[s.key], rows.count == passages.count {
                for (row, v) in zip(rows, passages) {
                    scales[row] = v.scale
                    components.replaceSubrange(row * dimension..<(row + 1) * dimension, with: v.components)
                }
            } else {
                if let rows = rowsOfKey[s.key] {
                    for row in rows { keys[row] = ""; scales[row] = 0 }
                    deadRows += rows.count
                }
                append(s)
            }
        }
    }

    /// Bytes held in memory for the vectors.
    public var byteCount: Int { components.count + scales.count * 4 }

    /// How many rows (passages) are held.
    public var rowCount: Int { keys.count - deadRows }

    /// The `k` nearest items to a unit query vector by cosine (each by its nearest passage), best first.
    public func nearest(_ query: [Float], k: Int) -> [(key: String, score: Float)] {
        guard query.count == dimension, k > 0, !keys.isEmpty else { return [] }
        var scores = [Float](repeating: 0, count: keys.count)
        let d = dimension
        let wide = d / 16 * 16
        // The query in 16-lane chunks; each row's int8 components are widened 16 at a time (SIMD in release builds).
        let chunks: [SIMD16<Float>] = stride(from: 0, to: wide, by: 16).map { i in
            SIMD16<Float>((0..<16).map { query[i + $0] })
        }
        components.withUnsafeBytes { raw in
            for row in 0..<keys.count {
                let base = row * d
                var acc = SIMD16<Float>()
                for (c, q) in chunks.enumerated() {
                    let bytes = raw.loadUnaligned(fromByteOffset: base + c * 16, as: SIMD16<Int8>.self)
                    acc += q * SIMD16<Float>(bytes)
                }
                var sum = acc.sum()
                for i in wide..<d { sum += query[i] * Float(raw.load(fromByteOffset: base + i, as: Int8.self)) }
                scores[row] = sum * scales[row]
            }
        }
        // The k best items in one pass: a small sorted list, entered only by a score above its worst; an item already
        // in it keeps its best passage's score.
        var best: [(row: Int, score: Float)] = []
        best.reserveCapacity(k + 1)
        for row in scores.indices {
            let s = scores[row]
            if best.count == k, s <= best[k - 1].score { continue }
            let key = keys[row]
            if key.isEmpty { continue }
            if let same = best.firstIndex(where: { keys[$0.row] == key }) {
                if best[same].score >= s { continue }
                best.remove(at: same)
            }
            let at = best.firstIndex { $0.score < s } ?? best.count
            best.insert((row, s), at: at)
            if best.count > k { best.removeLast() }
        }
        return best.map { (keys[$0.row], $0.score) }
    }
}

extension StoredVector: StoredVectorLike {
    public var key: String { kind.rawValue + ":" + itemID }
}

/// What the vector index is built from (a stored vector, keyed `kind:id`).
public protocol StoredVectorLike {
    var key: String { get }
    var data: Data { get }
}

/// Every stored vector of a store in memory, kept up to date by loading only what was saved since the last look
/// (everything again after a delete): the daemon's searches and the embedder's automatic links look after every
/// batch of a capture flood, and loading 63,000 vectors each time cost them hundreds of milliseconds.
/// Not for use from two threads at once.
public final class VectorCache: @unchecked Sendable {
    private let store: Store
    public let dimension: Int
    private var index: VectorIndex?
    private var state: Store.VectorState?

    public init(store: Store, dimension: Int) {
        self.store = store
        self.dimension = dimension
    }

    /// The vectors as the store holds them now.
    public func current() throws -> VectorIndex {
        let now = try store.vectorState()
        if let index, let state {
            if state == now { return index }
            if now.deletions == state.deletions, now.version > state.version {
                let changed = try store.vectors(changedAfter: state.version)
                if changed.state.deletions == state.deletions {
                    index.upsert(changed.vectors)
                    self.state = changed.state
                    return index
                }
            }
        }
        let all = try store.allVectorsWithState()
        let fresh = VectorIndex(all.vectors, dimension: dimension)
        index = fresh
        state = all.state
        return fresh
    }
}
