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

    /// The vector back from its stored form, or nil if the data is not `dimension` components long.
    public static func decode(_ data: Data, dimension: Int) -> (scale: Float, components: [Int8])? {
        guard data.count == 4 + dimension else { return nil }
        return data.withUnsafeBytes { raw in
            let scale = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt32.self)))
            return (scale, (0..<dimension).map { raw.load(fromByteOffset: 4 + $0, as: Int8.self) })
        }
    }
}

/// Every stored vector in memory for brute-force nearest neighbours (personal scale needs no ANN index:
/// 63,000 vectors of 384 components are 24 MB and a few milliseconds to scan).
public final class VectorIndex: @unchecked Sendable {
    public let dimension: Int
    /// `kind:id` of each vector, in storage order.
    public private(set) var keys: [String] = []
    private var scales: [Float] = []
    private var components: [Int8] = []

    /// Builds the index from stored vectors, skipping any of another dimension.
    public init(_ stored: [StoredVectorLike], dimension: Int) {
        self.dimension = dimension
        keys.reserveCapacity(stored.count)
        components.reserveCapacity(stored.count * dimension)
        for s in stored {
            guard let v = Vector.decode(s.data, dimension: dimension) else { continue }
            keys.append(s.key)
            scales.append(v.scale)
            components.append(contentsOf: v.components)
        }
    }

    public var count: Int { keys.count }

    /// Adds vectors, replacing those of the same keys in place (an edited note's new vector).
    public func upsert(_ stored: [StoredVectorLike]) {
        guard !stored.isEmpty else { return }
        if rowOfKey.count != keys.count { rowOfKey = Dictionary(keys.enumerated().map { ($1, $0) }, uniquingKeysWith: { $1 }) }
        for s in stored {
            guard let v = Vector.decode(s.data, dimension: dimension) else { continue }
            if let row = rowOfKey[s.key] {
                scales[row] = v.scale
                components.replaceSubrange(row * dimension..<(row + 1) * dimension, with: v.components)
            } else {
                rowOfKey[s.key] = keys.count
                keys.append(s.key)
                scales.append(v.scale)
                components.append(contentsOf: v.components)
            }
        }
    }
    /// Row of each key, made on the first `upsert`.
    private var rowOfKey: [String: Int] = [:]

    /// Bytes held in memory for the vectors.
    public var byteCount: Int { components.count + scales.count * 4 }

    /// The `k` nearest vectors to a unit query vector by cosine, best first.
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
        // The k best in one pass: a small sorted list, entered only by a score above its worst.
        var best: [(row: Int, score: Float)] = []
        best.reserveCapacity(k + 1)
        for row in scores.indices {
            let s = scores[row]
            if best.count == k, s <= best[k - 1].score { continue }
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
