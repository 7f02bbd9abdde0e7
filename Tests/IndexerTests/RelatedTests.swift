import Foundation
import EngramApp
import Indexer
import Testing

@Suite("Related memories")
struct RelatedTests {
    let dir = TemporaryDirectory()

    let corpus = [
        memory("sour1", "Sourdough starter: feed the levain with rye flour and water every morning"),
        memory("sour2", "My sourdough loaf rose well after the levain doubled overnight"),
        memory("sour3", "Rye flour makes the sourdough starter more active than white flour"),
        memory("tax", "File the quarterly tax return before the deadline and keep the receipts"),
        IndexDocument(kind: .curriculum, id: "c1", title: "Sourdough levain rye flour", body: "sourdough levain rye flour starter",
                      created: testNow),
    ]

    @Test func relatedReturnsTheMemoriesOnTheSameSubjectFirst() throws {
        let writer = try makeIndex(dir, corpus)
        let reader = try IndexReader.open(at: dir.stubPath)
        let related = try reader.related(kind: .memory, id: "sour1", limit: 10, now: testNow)
        #expect(Set(related.prefix(2).map(\.id)) == ["sour2", "sour3"])
        #expect(!related.contains { $0.id == "sour1" })  // never itself
        #expect(related.allSatisfy { $0.kind == .memory })  // memories only
        #expect(related.allSatisfy { $0.score > 0 && $0.score <= 1 })
        #expect(related.first?.title.isEmpty == false)
        #expect(try writer.related(kind: .memory, id: "sour1", limit: 10, now: testNow).map(\.id) == related.map(\.id))
        #expect(try reader.related(kind: .memory, id: "sour1", limit: 1, now: testNow).count == 1)
        // Expired memories are left out, as in search.
        #expect(try reader.related(kind: .memory, id: "sour1", limit: 10, now: testNow.addingTimeInterval(400 * day)).isEmpty)
    }

    @Test func relatedOfAnUnindexedItemIsEmpty() throws {
        try makeIndex(dir, corpus)
        let reader = try IndexReader.open(at: dir.stubPath)
        #expect(try reader.related(kind: .memory, id: "missing", limit: 5, now: testNow).isEmpty)
    }

    @Test func writerRelatedSeesOnlyCommittedData() throws {
        let writer = try makeIndex(dir, [corpus[0], corpus[1], corpus[3]])
        try writer.upsert(corpus[2])
        let before = try writer.related(kind: .memory, id: "sour1", limit: 10, now: testNow).map(\.id)
        #expect(before.first == "sour2")
        #expect(!before.contains("sour3"))
        try writer.commit(lastAppliedSeq: 2)
        let after = try writer.related(kind: .memory, id: "sour1", limit: 10, now: testNow).map(\.id)
        #expect(Set(after.prefix(2)) == ["sour2", "sour3"])
    }

    /// Where most notes share a subject, the words they share still count: a near-identical note is related (and so
    /// auto-linked at capture). The default probabilistic expansion gave such words no weight at all, so in a
    /// collection of two notes, or of four on sourdough and one other, nothing was found.
    @Test func aNearIdenticalNoteIsRelatedInATinyCollection() throws {
        let a = memory("a", "Sourdough starter needs feeding twice a day with rye flour")
        let b = memory("b", "Sourdough starter needs feeding twice daily with rye flour")
        try makeIndex(dir, [a, b])
        let two = try IndexReader.open(at: dir.stubPath).related(kind: .memory, id: "b", limit: 3, now: testNow)
        #expect(two.map(\.id) == ["a"])
        #expect((two.first?.score ?? 0) >= 0.8, "near-identical: \(two.first?.score ?? 0)")
        let other = TemporaryDirectory()
        var docs = (1...4).map { memory("s\($0)", "Sourdough starter needs feeding twice a day with rye flour \($0)") }
        docs += [memory("k", "Kubernetes pods restart when the liveness probe fails"), b]
        try makeIndex(other, docs)
        let five = try IndexReader.open(at: other.stubPath).related(kind: .memory, id: "b", limit: 3, now: testNow)
        #expect(five.count == 3 && five.allSatisfy { $0.id.hasPrefix("s") && $0.score >= 0.35 }, "\(five.map { ($0.id, $0.score) })")
    }
}
