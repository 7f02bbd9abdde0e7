import Foundation

/// Whether a text is a question to search with or a passage to be found: e5 models embed them differently.
public enum EmbedRole: Sendable {
    case query, passage
}

/// Turns texts into unit-length sentence-embedding vectors; one model, one dimension.
///
/// `E5Embedder` is the real one (the e5-small model through its C engine); `WordHashEmbedder` is an in-memory
/// twin for tests that need vectors but not meaning.
public protocol Embedder: AnyObject, Sendable {
    /// Names the model and its file, so that vectors made by another model are noticed and made again.
    var modelID: String { get }
    /// The length of every vector.
    var dimension: Int { get }
    /// One unit-length vector per text, in order.
    func embed(_ texts: [String], as role: EmbedRole) throws -> [[Float]]
}

/// Why meaning search is off, as a sentence for `engram index status`.
public struct MeaningUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// A deterministic embedder for tests: each word is hashed to a few of the dimensions, so texts sharing words are
/// near and others are not. It knows no meaning; it has the real one's shape and unit length.
public final class WordHashEmbedder: Embedder, @unchecked Sendable {
    public let modelID: String
    public let dimension: Int
    /// How many texts it has embedded (tests count the work done).
    public private(set) var embedded = 0
    private let lock = NSLock()

    public init(modelID: String = "word-hash-test", dimension: Int = 64) {
        self.modelID = modelID
        self.dimension = dimension
    }

    public func embed(_ texts: [String], as role: EmbedRole) throws -> [[Float]] {
        lock.lock(); embedded += texts.count; lock.unlock()
        return texts.map { text in
            var v = [Float](repeating: 0, count: dimension)
            for word in text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }) {
                var h: UInt64 = 1469598103934665603
                for b in word.utf8 { h = (h ^ UInt64(b)) &* 1099511628211 }
                v[Int(h % UInt64(dimension))] += 1
                v[Int((h >> 32) % UInt64(dimension))] += 0.5
            }
            return Vector.normalized(v.allSatisfy { $0 == 0 } ? [1] + [Float](repeating: 0, count: dimension - 1) : v)
        }
    }
}
