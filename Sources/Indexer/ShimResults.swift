import CXapian
import Foundation

/// Reads a cx_results page into Swift values and destroys it.
struct ShimResults {
    /// One decoded hit: the stored document header, the snippet text and relevance.
    struct Entry {
        var document: IndexDocument
        var snippet: String
        var relevance: Double
        /// False when only the document's kind and id were read (a hit past the search's detail count).
        var isComplete = true
    }

    var entries: [Entry] = []
    var estimatedTotal = 0
    var corrected: String?

    /// Takes ownership of results; hits whose data is not Engram data are skipped.
    init(taking results: OpaquePointer?) {
        guard let results else { return }
        defer { cx_results_destroy(results) }
        estimatedTotal = Int(clamping: cx_results_estimated_total(results))
        let correction = cx_results_corrected_query(results)
        if correction.data != nil { corrected = String(correction) }
        var hit = cx_hit()
        for index in 0..<cx_results_count(results) {
            guard cx_results_get(results, index, &hit) != 0 else { continue }
            guard let data = hit.data.data else {
                if let identity = Self.identity(hit.identity) {
                    let document = IndexDocument(kind: identity.kind, id: identity.id, title: "", body: "",
                                                 created: Date(timeIntervalSince1970: 0))
                    entries.append(Entry(document: document, snippet: "", relevance: hit.relevance, isComplete: false))
                }
                continue
            }
            let raw = UnsafeRawBufferPointer(start: data, count: hit.data.length)
            guard let document = DocumentData.decodeHeader(raw) else { continue }
            entries.append(Entry(document: document, snippet: String(hit.snippet), relevance: hit.relevance))
        }
    }

    /// A document's identity value, "kind:id"; nil if it is not one.
    static func identity(_ bytes: cx_bytes) -> (kind: IndexKind, id: String)? {
        guard bytes.data != nil else { return nil }
        let text = String(bytes)
        guard let colon = text.firstIndex(of: ":"), let kind = IndexKind(rawValue: String(text[..<colon])) else { return nil }
        let id = String(text[text.index(after: colon)...])
        return id.isEmpty ? nil : (kind, id)
    }
}
