import Foundation
import EngramApp
import Indexer

/// A temporary directory removed when the value is deinitialised.
final class TemporaryDirectory {
    let path: String

    init() {
        let base = FileManager.default.temporaryDirectory.path
        path = (base as NSString).appendingPathComponent("engram-indexer-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The index stub path inside the directory.
    var stubPath: String { IndexLayout.stubPath(inDirectory: path) }
}

/// A fixed "now" so expiry and decay are deterministic.
let testNow = Date(timeIntervalSince1970: 1_750_000_000)  // 2025-06-15

/// One day in seconds.
let day: TimeInterval = 86_400

/// Builds a memory document with sensible defaults.
func memory(
    _ id: String, _ body: String, type: String? = "note", tags: [String] = [], context: String? = nil,
    created: Date = testNow.addingTimeInterval(-10 * day), expiry: Date? = testNow.addingTimeInterval(300 * day)
) -> IndexDocument {
    let title = body.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
    return IndexDocument(
        kind: .memory, id: id, title: title, body: body, type: type, tags: tags, context: context,
        created: created, expiry: expiry)
}

/// Opens a writer on a fresh index in dir, upserts documents and commits them.
@discardableResult
func makeIndex(_ dir: TemporaryDirectory, _ documents: [IndexDocument], seq: Int64 = 1) throws -> IndexWriter {
    let writer = try IndexWriter.open(at: dir.stubPath)
    for document in documents { try writer.upsert(document) }
    try writer.commit(lastAppliedSeq: seq)
    return writer
}

/// Searches with the fixed test clock.
func search(_ reader: IndexReader, _ query: String, configure: (inout SearchRequest) -> Void = { _ in }) throws -> SearchResults {
    var request = SearchRequest(query: query)
    request.now = testNow
    configure(&request)
    return try reader.search(request)
}

/// The ids of a search's hits, in rank order.
func ids(_ reader: IndexReader, _ query: String, configure: (inout SearchRequest) -> Void = { _ in }) throws -> [String] {
    try search(reader, query, configure: configure).hits.map(\.id)
}

/// Runs a program and returns its standard output; fails the caller on a non-zero exit.
func run(_ executable: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = Pipe()
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    struct ToolFailed: Error { let status: Int32 }
    guard process.terminationStatus == 0 else { throw ToolFailed(status: process.terminationStatus) }
    return String(decoding: data, as: UTF8.self)
}
