import CXapian
import Foundation
import EngramApp
@testable import Indexer
import Testing

/// Each Xapian failure family reaches Swift as a status from the shim and then as a typed IndexError.
@Suite("Error mapping")
struct ErrorMappingTests {
    let dir = TemporaryDirectory()

    @Test func secondWriterIsLockedAtOnce() throws {
        let first = try makeIndex(dir, [memory("m1", "held")])
        let started = Date()
        #expect(throws: IndexError.self) { try IndexWriter.open(at: dir.stubPath) }
        do {
            _ = try IndexWriter.open(at: dir.stubPath)
        } catch let error as IndexError {
            guard case .locked(let message) = error else { Issue.record("expected .locked, got \(error)"); return }
            #expect(message.contains("lock"))
            #expect(error.description.contains("another Engram process"))
        }
        #expect(Date().timeIntervalSince(started) < 2)  // it never waits for the lock
        first.close()
        #expect(throws: Never.self) { try IndexWriter.open(at: dir.stubPath).close() }
    }

    @Test func rawShimReportsLockStatusAndTypeName() throws {
        let writer = try makeIndex(dir, [])
        defer { writer.close() }
        var second: OpaquePointer?
        var error: OpaquePointer?
        let status = cx_writer_open(dir.stubPath, 1, &second, &error)
        defer { cx_error_destroy(error) }
        #expect(status == CX_STATUS_DATABASE_LOCKED)
        #expect(second == nil)
        #expect(String(cString: cx_error_type(error)) == "DatabaseLockError")
    }

    @Test func missingIndexIsNotFound() throws {
        let missing = (dir.path as NSString).appendingPathComponent("nothing-here")
        #expect(throws: IndexError.self) { try IndexReader.open(at: missing) }
        do {
            _ = try IndexReader.open(at: missing)
        } catch let error as IndexError {
            guard case .notFound = error else { Issue.record("expected .notFound, got \(error)"); return }
        }
        do {
            _ = try IndexWriter.open(at: missing, create: false)
            Issue.record("opening a missing index without create succeeded")
        } catch let error as IndexError {
            guard case .notFound = error else { Issue.record("expected .notFound, got \(error)"); return }
        }
        #expect(!FileManager.default.fileExists(atPath: missing))
        var database: OpaquePointer?
        var raw: OpaquePointer?
        #expect(cx_database_open(missing, &database, &raw) == CX_STATUS_DATABASE_NOT_FOUND)
        #expect(String(cString: cx_error_type(raw)) == "DatabaseNotFoundError")
        cx_error_destroy(raw)
    }

    @Test func unparsableQueryIsAQueryParseErrorInTheShimAndPlainWordsInSearch() throws {
        try makeIndex(dir, [memory("m1", "Meeting notes for pages 1..2 of the AND committee")])
        var database: OpaquePointer?
        #expect(cx_database_open(dir.stubPath, &database, nil) == CX_STATUS_SUCCESS)
        defer { cx_database_destroy(database) }
        for query in ["AND", "1..2", "created:..2024"] {
            var description: UnsafeMutablePointer<CChar>?
            var error: OpaquePointer?
            let status = query.withCString { cx_database_parse_query(database, cx_bytes(data: $0, length: strlen($0)), 0, &description, &error) }
            #expect(status == CX_STATUS_QUERY_PARSER_ERROR, "\(query)")
            #expect(String(cString: cx_error_type(error)) == "QueryParserError")
            guard case .queryParse = IndexError(status: status, error: error) else {
                Issue.record("\(query) did not map to .queryParse")
                continue
            }
            cx_error_destroy(error)
            cx_string_free(description)
        }
        let reader = try IndexReader.open(at: dir.stubPath)
        let results = try search(reader, "1..2")
        #expect(results.hits.map(\.id) == ["m1"])
        #expect(results.notice?.contains("plain words") == true)
        #expect(try search(reader, "meeting").notice == nil)
        #expect(try search(reader, "AND").hits.map(\.id) == ["m1"])
    }

    @Test func discardedRevisionIsDatabaseModifiedRawAndRecoveredBySearch() throws {
        let body = (0..<300).map { "word\($0)" }.joined(separator: " ")
        let writer = try makeIndex(dir, (0..<50).map { memory("m\($0)", "churn \(body)") })
        let reader = try IndexReader.open(at: dir.stubPath)
        var raw: OpaquePointer?
        #expect(cx_database_open(dir.stubPath, &raw, nil) == CX_STATUS_SUCCESS)
        defer { cx_database_destroy(raw) }
        #expect(try search(reader, "churn").estimatedTotal == 50)

        var status = CX_STATUS_SUCCESS
        var rawError: OpaquePointer?
        var commits = 0
        while status == CX_STATUS_SUCCESS && commits < 200 {
            commits += 1
            for index in 0..<50 { try writer.upsert(memory("m\(index)", "churn round\(commits) \(body)")) }
            try writer.commit(lastAppliedSeq: Int64(commits))
            status = rawSearch(raw, "churn", &rawError)
        }
        #expect(status == CX_STATUS_DATABASE_MODIFIED, "after \(commits) commits")
        #expect(String(cString: cx_error_type(rawError)) == "DatabaseModifiedError")
        #expect(IndexError(status: status, error: rawError) == .databaseModified(String(cString: cx_error_message(rawError))))
        cx_error_destroy(rawError)

        #expect(reader.modifiedRecoveries == 0)
        let results = try search(reader, "churn")
        #expect(reader.modifiedRecoveries == 1)  // it hit the discarded revision and reopened by itself
        #expect(results.estimatedTotal == 50)
        #expect(results.hits.first?.snippet.plainText.contains("round\(commits)") == true)
        #expect(try reader.lastAppliedSeq() == Int64(commits))
    }

    /// Runs a search through the raw shim without reopening.
    private func rawSearch(_ database: OpaquePointer?, _ query: String, _ error: inout OpaquePointer?) -> cx_status {
        cx_error_destroy(error)
        error = nil
        var results: OpaquePointer?
        defer { cx_results_destroy(results) }
        return query.withCString { text in
            "memory".withCString { kind in
                var kindBytes = cx_bytes(data: kind, length: 6)
                var options = cx_search_options(
                    query: cx_bytes(data: text, length: strlen(text)), kinds: nil, kind_count: 0, offset: 0, limit: 50,
                    flags: 0, now: testNow.timeIntervalSince1970, context: cx_bytes(data: nil, length: 0),
                    decay_weight: 1, snippet_length: 80, snippet_count: 0, detail_count: 0)
                return withUnsafePointer(to: &kindBytes) { kinds in
                    options.kinds = kinds
                    options.kind_count = 1
                    return cx_database_search(database, &options, &results, &error)
                }
            }
        }
    }
}
