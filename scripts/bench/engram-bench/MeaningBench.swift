// engram-bench --meaning: the speed of meaning search, in process (used by scripts/bench/meaning_speed.py).
//
// Usage: engram-bench --meaning --data-dir DIR --queries QUERIES.jsonl [--synthetic N]
// The data folder must have its vectors (engram index embed). Measures, each query once cold and then warm:
// query embedding, brute-force nearest neighbours over the folder's vectors (and over N random vectors, for the
// scale of a large collection), the hybrid search as the daemon runs it (reader + meaning, a natural question
// not typed letter by letter), and passage embedding throughput over the folder's own texts.
import EngramCore
import Foundation
import EngramApp
import Indexer
import Meaning

struct MeaningOutput: Encodable {
    var documents: Int
    var vectors: Int
    var model: String
    var vectorBytesPerItem: Double
    var queryEmbedMs: [Double]
    var nearestMs: [Double]
    var syntheticVectors: Int
    var syntheticNearestMs: [Double]
    var syntheticMegabytes: Double
    var hybridMs: [Double]
    var wordsOnlyMs: [Double]
    var passagesPerSecond: Double
    var passagesTimed: Int
}

func runMeaningBench(dataDir: String, queryPath: String) throws {
    var paths = EngramPaths.fromEnvironment()
    paths.dataDirectory = dataDir
    let library = try Library(paths: paths)
    guard case .success(let embedder) = library.meaningModel else {
        throw EngramError.config("meaning search is off: \(try library.meaningStatus().reason ?? "?")")
    }
    guard let meaning = library.meaningSearch() else { throw EngramError.config("no vectors in \(dataDir): run engram index embed") }
    let reader = try library.openReader()
    let queries = try String(contentsOfFile: queryPath, encoding: .utf8).split(separator: "\n").filter { !$0.isEmpty }
        .compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        .compactMap { ($0["q"] as? String) }
    let index = try meaning.vectors()
    func time(_ body: () throws -> Void) rethrows -> Double {
        let t = nanos()
        try body()
        return Double(nanos() - t) / 1e6
    }
    var embedMs: [Double] = [], nearestMs: [Double] = [], hybridMs: [Double] = [], wordsMs: [Double] = []
    for q in queries {
        var v: [Float] = []
        embedMs.append(try time { v = try embedder.embed([q], as: .query)[0] })
        nearestMs.append(time { _ = index.nearest(v, k: MeaningSearch.neighbourCount) })
        var request = SearchRequest(query: q)
        request.partial = false
        request.limit = 10
        // Cold: the query's vector is not cached yet (as for a new question), so this includes embedding it.
        hybridMs.append(try time { _ = try reader.search(request, meaning: meaning) })
        wordsMs.append(try time { _ = try reader.search(request) })
    }
    // A large collection: random unit vectors, brute force.
    let n = Int(argument("--synthetic") ?? "") ?? 63_666
    var generator = SystemRandomNumberGenerator()
    let synthetic = (0..<n).map { i -> StoredVector in
        let v = Vector.normalized((0..<embedder.dimension).map { _ in Float.random(in: -1...1, using: &generator) })
        return StoredVector(kind: .memory, itemID: "x\(i)", textHash: "", data: Vector.encode(v))
    }
    let big = VectorIndex(synthetic, dimension: embedder.dimension)
    var bigMs: [Double] = []
    for q in queries.prefix(50) {
        let v = try embedder.embed([q], as: .query)[0]
        bigMs.append(time { _ = big.nearest(v, k: MeaningSearch.neighbourCount) })
    }
    // Throughput over the folder's own texts (up to 100).
    let texts = try library.store.indexSnapshot().memories.prefix(100).map { MeaningIndexer.text(of: $0) }
    let seconds = try time { _ = try embedder.embed(Array(texts), as: .passage) } / 1000
    let vectors = try library.store.allVectors()
    let out = MeaningOutput(
        documents: try reader.documentCount(kind: nil), vectors: vectors.count, model: embedder.modelID,
        vectorBytesPerItem: vectors.isEmpty ? 0 : Double(vectors.reduce(0) { $0 + $1.data.count + $1.itemID.utf8.count + $1.textHash.utf8.count + 8 }) / Double(vectors.count),
        queryEmbedMs: embedMs, nearestMs: nearestMs, syntheticVectors: n, syntheticNearestMs: bigMs,
        syntheticMegabytes: Double(big.byteCount) / 1e6, hybridMs: hybridMs, wordsOnlyMs: wordsMs,
        passagesPerSecond: seconds > 0 ? Double(texts.count) / seconds : 0, passagesTimed: texts.count)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    FileHandle.standardOutput.write(try encoder.encode(out))
    FileHandle.standardOutput.write("\n".data(using: .utf8)!)
}
