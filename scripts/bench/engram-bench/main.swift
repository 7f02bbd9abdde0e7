// engram-bench: in-process query latency over an Engram data folder (used by `make bench`).
//
// Usage: engram-bench --data-dir DIR --queries QUERIES.jsonl [--rounds N]
// Each query line is {"q": "...", "partial": bool, "class": "..."}. The index is opened once (as the
// daemon keeps it open); every query runs once to warm up, then N interleaved rounds are timed, both
// on the reader (what the daemon and providers call) and through Library.search (what `engram search`
// calls after start-up: outbox check, context, reader open). Prints one JSON object.
import EngramCore
import Foundation
import EngramApp
import Indexer

struct QuerySpec: Decodable {
    var q: String
    var partial: Bool?
    var `class`: String?
}

struct QueryResult: Encodable {
    var q: String
    var `class`: String
    var hits: Int
    var estimated: Int
    var readerMedianMs: Double
    var libraryMedianMs: Double
    var readerCpuMedianMs: Double
}

struct Output: Encodable {
    var documents: Int
    var rounds: Int
    var readerMs: [Double]
    /// CPU time of the searching thread per reader search: what load from other processes does not inflate.
    var readerCpuMs: [Double]
    var libraryMs: [Double]
    var queries: [QueryResult]
}

func argument(_ name: String) -> String? {
    let args = CommandLine.arguments
    guard let i = args.firstIndex(of: name), i + 1 < args.count else { return nil }
    return args[i + 1]
}

func nanos() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// CPU time consumed by the calling thread, in nanoseconds.
func cpuNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    return s.isEmpty ? 0 : s[s.count / 2]
}

if CommandLine.arguments.contains("--meaning"), let dataDir = argument("--data-dir"), let queryPath = argument("--queries") {
    do {
        try runMeaningBench(dataDir: dataDir, queryPath: queryPath)
        exit(0)
    } catch {
        FileHandle.standardError.write("engram-bench: \(error)\n".data(using: .utf8)!)
        exit(1)
    }
}
guard let dataDir = argument("--data-dir"), let queryPath = argument("--queries") else {
    FileHandle.standardError.write("usage: engram-bench --data-dir DIR --queries FILE [--rounds N]\n".data(using: .utf8)!)
    exit(2)
}
let rounds = Int(argument("--rounds") ?? "") ?? 20
do {
    var paths = EngramPaths.fromEnvironment()
    paths.dataDirectory = dataDir
    let library = try Library(paths: paths)
    let reader = try library.openReader()
    let specs = try String(contentsOfFile: queryPath, encoding: .utf8)
        .split(separator: "\n").filter { !$0.isEmpty }
        .map { try JSONDecoder().decode(QuerySpec.self, from: Data($0.utf8)) }
    func request(_ s: QuerySpec) -> SearchRequest {
        var r = SearchRequest(query: s.q)
        r.limit = library.config.searchLimit
        r.partial = s.partial ?? false
        r.decayWeight = library.config.searchDecayWeight
        r.now = Date()
        return r
    }
    var results: [QueryResult] = []
    for s in specs {  // warm-up, and the hit counts
        let r = try reader.search(request(s))
        _ = try library.search(request(s), applyFirst: true)
        results.append(QueryResult(q: s.q, class: s.class ?? "", hits: r.hits.count, estimated: r.estimatedTotal,
                                   readerMedianMs: 0, libraryMedianMs: 0, readerCpuMedianMs: 0))
    }
    var readerTimes = Array(repeating: [Double](), count: specs.count)
    var libraryTimes = Array(repeating: [Double](), count: specs.count)
    var readerCpu = Array(repeating: [Double](), count: specs.count)
    for _ in 0..<rounds {
        for (i, s) in specs.enumerated() {
            let req = request(s)
            let c = cpuNanos()
            var t = nanos()
            _ = try reader.search(req)
            readerTimes[i].append(Double(nanos() - t) / 1e6)
            readerCpu[i].append(Double(cpuNanos() - c) / 1e6)
            t = nanos()
            _ = try library.search(req, applyFirst: true)
            libraryTimes[i].append(Double(nanos() - t) / 1e6)
        }
    }
    for i in results.indices {
        results[i].readerMedianMs = median(readerTimes[i])
        results[i].libraryMedianMs = median(libraryTimes[i])
        results[i].readerCpuMedianMs = median(readerCpu[i])
    }
    let out = Output(documents: try reader.documentCount(kind: nil), rounds: rounds,
                     readerMs: readerTimes.flatMap { $0 }, readerCpuMs: readerCpu.flatMap { $0 }, libraryMs: libraryTimes.flatMap { $0 }, queries: results)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    FileHandle.standardOutput.write(try encoder.encode(out))
    FileHandle.standardOutput.write("\n".data(using: .utf8)!)
} catch {
    FileHandle.standardError.write("engram-bench: \(error)\n".data(using: .utf8)!)
    exit(1)
}
