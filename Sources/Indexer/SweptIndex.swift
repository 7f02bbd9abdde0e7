import EngramCore
import Foundation

/// Memories swept from the index (faded, still in the store), indexed on demand into a private temporary
/// database by the index's own document building, so that `search --all` reads them with exactly the query
/// semantics of the index: prefixes, operators, phrases, stemming and spelling.
public struct SweptIndex {
    /// The temporary database's folder.
    public let path: String

    /// Indexes `memories` into a new private folder (0700) under `directory`; nil when there are none.
    public static func build(_ memories: [Memory], decay: DecayModel, under directory: String) throws -> SweptIndex? {
        guard !memories.isEmpty else { return nil }
        try IndexLayout.makePrivateDirectory(directory)
        removeAbandoned(in: directory)
        var template = Array((directory as NSString).appendingPathComponent(prefix + "XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard let made else {
            throw IndexError.io("could not create a temporary index in \(directory): \(String(cString: strerror(errno)))")
        }
        let swept = SweptIndex(path: String(cString: made))
        do {
            let writer = try IndexWriter.open(at: swept.path, create: true)
            defer { writer.close() }
            for memory in memories { try writer.upsert(StoreMapping.document(for: memory, decay: decay)) }
            try writer.commit(lastAppliedSeq: 0)
        } catch {
            swept.remove()
            throw error
        }
        return swept
    }

    /// Removes the temporary database.
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The name every temporary database folder starts with.
    static let prefix = "swept-"

    /// Removes the folders of searches that died before removing their own (untouched for an hour).
    public static func removeAbandoned(in directory: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        let cutoff = Date().addingTimeInterval(-3600)
        for name in names where name.hasPrefix(prefix) {
            let path = (directory as NSString).appendingPathComponent(name)
            if let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date, modified < cutoff {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
    }
}
