// QueryFuzz.swift - part 4 of `make stress`: generated queries through Engram's query path.
//
// Built by scripts/stress/query-fuzz/build.sh together with the Indexer's read path (IndexReader and what it
// needs) and the C++ shim, as one module:
//   - with `-sanitize=fuzzer` (libFuzzer, coverage-guided over the Swift and C++ sources): libFuzzer calls
//     LLVMFuzzerTestOneInput with each input;
//   - without it (`-D QUERY_FUZZ_STANDALONE`): `main` mutates the seed corpus with a seeded generator.
// Each input is tried two ways: decoded as a Swift String through IndexReader.search (what `engram search`, the
// daemon and the providers call), and as raw bytes (invalid UTF-8, NULs) straight into the shim's parser and search.
// A failure calls abort(), which libFuzzer reports with the input that caused it.
// Environment: QUERY_FUZZ_INDEX (the index stub of a data folder), QUERY_FUZZ_MAX_CPU (seconds, default 1).
import CXapian
import Foundation

nonisolated(unsafe) var fuzzReader: IndexReader?
nonisolated(unsafe) var fuzzDatabase: OpaquePointer?
nonisolated(unsafe) var fuzzStats = FuzzStats()

struct FuzzStats {
    var queries = 0
    var rawQueries = 0
    var maxWallSeconds = 0.0
    var maxCPUSeconds = 0.0
    var slowestQuery = ""
    var withHits = 0
    var plainWordNotices = 0
    var refusedTooLong = 0
    var parseErrors = 0
    var rawParseErrors = 0
    var longestQueryBytes = 0
    var sampleNotice = ""
}

func cpuSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func wallSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func fail(_ why: String, _ query: String) -> Never {
    let shown = query.prefix(300).unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7f ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined()
    FileHandle.standardError.write(Data("query-fuzz: FAIL: \(why)\n  query (\(query.utf8.count) bytes): \(shown)\n".utf8))
    abort()
}

/// A message for people: starts with a capital letter, holds a full stop, and shows no C++ internals.
func isSentence(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, CharacterSet.uppercaseLetters.contains(first), text.contains(".") else { return false }
    let internals = ["std::", "what():", "terminate called", "Xapian::", "basic_string", "0x", "exception", "Exception", "\0"]
    return !internals.contains { text.contains($0) }
}

func loadIndex() {
    guard let stub = ProcessInfo.processInfo.environment["QUERY_FUZZ_INDEX"] else {
        FileHandle.standardError.write(Data("query-fuzz: set QUERY_FUZZ_INDEX to an index stub\n".utf8))
        exit(2)
    }
    do {
        fuzzReader = try IndexReader.open(at: stub)
    } catch {
        FileHandle.standardError.write(Data("query-fuzz: cannot open \(stub): \(error)\n".utf8))
        exit(2)
    }
    var handle: OpaquePointer?
    var error: OpaquePointer?
    guard cx_database_open(stub, &handle, &error) == CX_STATUS_SUCCESS else { exit(2) }
    fuzzDatabase = handle
    atexit {
        let s = fuzzStats
        print("FIGURE queries: \(s.queries)")
        print("FIGURE raw_byte_queries: \(s.rawQueries)")
        print("FIGURE max_query_ms: \(String(format: "%.1f", s.maxWallSeconds * 1000))")
        print("FIGURE max_query_cpu_ms: \(String(format: "%.1f", s.maxCPUSeconds * 1000))")
        print("FIGURE queries_with_hits: \(s.withHits)")
        print("FIGURE plain_word_fallbacks: \(s.plainWordNotices)")
        print("FIGURE refused_too_long: \(s.refusedTooLong)")
        print("FIGURE longest_query_bytes: \(s.longestQueryBytes)")
        let slow = s.slowestQuery.prefix(60).unicodeScalars.map { $0.value < 0x20 ? "?" : String($0) }.joined()
        print("slowest query: \(slow)")
        if !s.sampleNotice.isEmpty { print("sample notice: \(s.sampleNotice)") }
        fflush(stdout)
    }
}

let maxCPU = Double(ProcessInfo.processInfo.environment["QUERY_FUZZ_MAX_CPU"] ?? "") ?? 1.0

/// Runs one input both ways; aborts on a crash-worthy outcome.
func runOne(_ bytes: UnsafeRawBufferPointer) {
    guard let reader = fuzzReader, let database = fuzzDatabase else { return }
    let selector = bytes.first ?? 0
    let body = bytes.count > 1 ? UnsafeRawBufferPointer(rebasing: bytes[1...]) : UnsafeRawBufferPointer(start: nil, count: 0)
    let query = String(decoding: body, as: UTF8.self)

    // 1. Through IndexReader.search, as every front end does.
    var request = SearchRequest(query: query)
    request.partial = selector & 1 != 0
    request.includeExpired = selector & 2 != 0
    request.limit = selector & 4 != 0 ? 20 : 3
    request.snippetLength = selector & 8 != 0 ? 160 : 0
    if selector & 16 != 0 { request.context = "work" }
    let wall0 = wallSeconds(), cpu0 = cpuSeconds()
    do {
        let results = try reader.search(request)
        if !results.hits.isEmpty { fuzzStats.withHits += 1 }
        if let notice = results.notice {
            guard isSentence(notice) else { fail("the notice is not a sentence: \(notice)", query) }
            fuzzStats.plainWordNotices += 1
            if fuzzStats.sampleNotice.isEmpty { fuzzStats.sampleNotice = notice }
        }
    } catch let error as IndexError {
        switch error {
        case .invalidArgument where query.utf8.count > Limits.maxQueryBytes:
            fuzzStats.refusedTooLong += 1
        case .queryParse:
            fuzzStats.parseErrors += 1
            fail("the plain-words retry did not parse either: \(error)", query)
        default:
            fail("unexpected error: \(error)", query)
        }
        guard isSentence(error.description) else { fail("the error is not a sentence: \(error.description)", query) }
    } catch {
        fail("untyped error: \(error)", query)
    }
    let wall = wallSeconds() - wall0, cpu = cpuSeconds() - cpu0
    fuzzStats.queries += 1
    fuzzStats.longestQueryBytes = max(fuzzStats.longestQueryBytes, query.utf8.count)
    if wall > fuzzStats.maxWallSeconds { fuzzStats.maxWallSeconds = wall; fuzzStats.slowestQuery = query }
    fuzzStats.maxCPUSeconds = max(fuzzStats.maxCPUSeconds, cpu)
    if cpu > maxCPU { fail("the query took \(cpu) s of CPU (limit \(maxCPU) s)", query) }

    // 2. The raw bytes straight into the shim, when they are not what the String holds (invalid UTF-8) or hold NULs.
    guard body.count <= Limits.maxQueryBytes, selector & 64 != 0 || body.contains(0) || !query.utf8.elementsEqual(body) else { return }
    let cpu1 = cpuSeconds()
    let raw = UnsafeMutableRawPointer.allocate(byteCount: max(body.count, 1), alignment: 1)
    defer { raw.deallocate() }
    if body.count > 0 { raw.copyMemory(from: body.baseAddress!, byteCount: body.count) }
    let text = cx_bytes(data: raw.assumingMemoryBound(to: CChar.self), length: body.count)
    let flags = UInt32(selector & 1) | CX_SEARCH_SPELLING.rawValue | (selector & 32 != 0 ? CX_SEARCH_PLAIN_WORDS.rawValue : 0)
    var description: UnsafeMutablePointer<CChar>?
    var error: OpaquePointer?
    let parsed = cx_database_parse_query(database, text, flags, &description, &error)
    cx_string_free(description)
    checkRaw(parsed, error, query)
    let kind = "memory"
    kind.withCString { kindPointer in
        var kinds = cx_bytes(data: kindPointer, length: 6)
        withUnsafePointer(to: &kinds) { kindsPointer in
            var options = cx_search_options(query: text, kinds: kindsPointer, kind_count: 1, offset: 0, limit: 5, flags: flags,
                                            now: Date().timeIntervalSince1970, context: cx_bytes(data: nil, length: 0),
                                            decay_weight: 1, snippet_length: 80, snippet_count: 0,
                                            // Identity-only hits past 1 or 2 (GNOME's lean page), or every hit whole.
                                            detail_count: UInt32(text.length % 3))
            var results: OpaquePointer?
            var searchError: OpaquePointer?
            let status = cx_database_search(database, &options, &results, &searchError)
            cx_results_destroy(results)
            checkRaw(status, searchError, query)
        }
    }
    fuzzStats.rawQueries += 1
    let rawCPU = cpuSeconds() - cpu1
    fuzzStats.maxCPUSeconds = max(fuzzStats.maxCPUSeconds, rawCPU / 2)
    if rawCPU / 2 > maxCPU { fail("the raw query took \(rawCPU / 2) s of CPU", query) }
}

/// Raw shim calls may succeed or refuse the syntax; anything else (an unexpected exception type) is a defect.
func checkRaw(_ status: cx_status, _ error: OpaquePointer?, _ query: String) {
    defer { cx_error_destroy(error) }
    switch status {
    case CX_STATUS_SUCCESS: return
    case CX_STATUS_QUERY_PARSER_ERROR:
        fuzzStats.rawParseErrors += 1
        let typed = IndexError(status: status, error: error)
        guard isSentence(typed.description) || typed.description.hasPrefix("The search could not be understood") else {
            fail("a parse error is not a sentence: \(typed.description)", query)
        }
    default:
        fail("the shim returned \(IndexError(status: status, error: error))", query)
    }
}

#if QUERY_FUZZ_STANDALONE
/// Without libFuzzer: mutates the seed corpus with a seeded generator (xorshift), QUERY_FUZZ_RUNS inputs.
@main
struct Standalone {
    static func main() {
        loadIndex()
        let env = ProcessInfo.processInfo.environment
        let runs = Int(env["QUERY_FUZZ_RUNS"] ?? "") ?? 100_000
        var state = UInt64(env["QUERY_FUZZ_SEED"] ?? "") ?? 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state }
        let dir = CommandLine.arguments.dropFirst().first { !$0.hasPrefix("-") } ?? ""
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir).sorted()) ?? []
        var seeds = names.compactMap { FileManager.default.contents(atPath: dir + "/" + $0).map([UInt8].init) }
        if seeds.isEmpty { seeds = [[0]] }
        let tokens: [[UInt8]] = ["tag:", "type:", "ctx:", "in:", "kind:", "title:", "created:", "..", "\"", "(", ")", " AND ", " OR ",
                                 " NOT ", " NEAR ", " ADJ/3 ", "*", "-", "+", "\u{0}", "\u{FFFD}", "😀", "שלום"].map { Array($0.utf8) }
        for i in 0..<runs {
            var input = i < seeds.count ? seeds[i] : seeds[Int(next() % UInt64(seeds.count))]
            if i >= seeds.count {
                for _ in 0..<(1 + Int(next() % 4)) {
                    let at = input.isEmpty ? 0 : Int(next() % UInt64(input.count + 1))
                    switch next() % 4 {
                    case 0: input.insert(contentsOf: tokens[Int(next() % UInt64(tokens.count))], at: at)
                    case 1: input.insert(UInt8(truncatingIfNeeded: next()), at: at)
                    case 2: if at < input.count { input.remove(at: at) }
                    default: if at < input.count { input[at] = UInt8(truncatingIfNeeded: next()) }
                    }
                }
            }
            input.withUnsafeBytes { runOne($0) }
        }
    }
}
#else
@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    loadIndex()
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    runOne(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
#endif
