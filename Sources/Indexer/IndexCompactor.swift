import CXapian
import Foundation

/// Copies the index into a new generation with Xapian's compaction and swaps it in, so the bytes of deleted
/// (forgotten) items, which Xapian leaves in free blocks of its tables, do not stay on disk in Engram's files.
///
/// Like `IndexRebuilder`, it holds the current generation's write lock until the swap (close your `IndexWriter`
/// first; this throws `.locked` otherwise, and a writer must be reopened after it). Readers keep answering from
/// the old generation until they reopen; the old generation's files are removed after the swap.
public enum IndexCompactor {
    /// Compacts the index at stubPath into a new generation and swaps it in; returns the new generation's path.
    @discardableResult
    public static func compact(stubPath: String) throws -> String {
        let lock = try IndexWriter.open(at: stubPath, create: false)
        defer { lock.close() }
        guard let current = try IndexLayout.currentGeneration(forStub: stubPath) else {
            throw IndexError.notFound("there is no index at \(stubPath) to compact")
        }
        let name = try IndexLayout.makeGeneration(forStub: stubPath)
        let generation = IndexLayout.generationPath(forStub: stubPath, name: name)
        // Xapian's compaction creates the directory itself and refuses one that holds a database; an empty one is fine.
        do {
            try shimCall { cx_compact_database(current, generation, $0) }
            try IndexLayout.swapStub(stubPath, toGeneration: name)
        } catch {
            try? FileManager.default.removeItem(atPath: generation)
            throw error
        }
        let number = Int(name) ?? 0
        for old in IndexLayout.generations(forStub: stubPath) where (Int(old) ?? 0) < number {
            try? FileManager.default.removeItem(atPath: IndexLayout.generationPath(forStub: stubPath, name: old))
        }
        return generation
    }
}
