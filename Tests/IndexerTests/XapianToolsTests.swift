import Foundation
import EngramApp
import Indexer
import Testing

/// Xapian's own command-line tools read our index: an outside client checking what we wrote.
@Suite("Xapian tools")
struct XapianToolsTests {
    let dir = TemporaryDirectory()

    static let quest = "/usr/bin/quest"
    static let delve = "/usr/bin/xapian-delve"

    let corpus = [
        memory("a1", "Pack the tent and the sleeping bag for the mountain trip"),
        memory("a2", "Mountain bike needs a new chain", tags: ["errands"]),
        memory("a3", "Book the train to the coast", context: "personal"),
        memory("a4", "Sleeping well matters more than a late deadline", type: "idea"),
        memory("a5", "The chain of custody for the tent rental", expiry: nil),
        IndexDocument(kind: .curriculum, id: "c1", title: "Mountain safety", body: "Weather, navigation and the tent",
                      curriculumID: "c1", created: testNow),
    ]

    /// The "kind:id" of each hit quest prints, read from the document data it shows.
    func questIDs(_ arguments: [String]) throws -> Set<String> {
        let output = try run(Self.quest, ["-d", dir.stubPath, "-m", "100"] + arguments)
        var found = Set<String>()
        var kind: String?
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "engram-doc 1" { kind = nil }
            if line.hasPrefix("kind=") { kind = String(line.dropFirst(5)) }
            if line.hasPrefix("id="), let kind { found.insert("\(kind):\(line.dropFirst(3))") }
        }
        return found
    }

    @Test(arguments: ["tent", "mountain", "chain", "sleeping", "coast", "tent mountain", "the sleeping", "nothingmatches"])
    func questFindsTheSameItemsAsSearch(query: String) throws {
        try makeIndex(dir, corpus)
        let reader = try IndexReader.open(at: dir.stubPath)
        let ours = try search(reader, query + " ") { $0.limit = 100 }.hits.map { "\($0.kind.rawValue):\($0.id)" }
        let theirs = try questIDs(["-o", "and", query])
        #expect(Set(ours) == theirs)
        #expect(ours.count == theirs.count)
        if query != "nothingmatches" { #expect(!theirs.isEmpty) }
    }

    @Test func deletedMemoryLeavesNoTermNoWordAndNoSpellingBehind() throws {
        let writer = try makeIndex(dir, corpus + [memory("secret", "Remember the word xylocarpous for the quiz")])
        let before = try run(Self.delve, ["-a", "-1", dir.stubPath])
        #expect(before.contains("\nxylocarpous\n"))
        #expect(before.contains("\nQmemory:secret\n"))
        #expect(try run(Self.quest, ["-d", dir.stubPath, "-f", "default,spelling_correction", "xylocarpus"])
            .contains("Did you mean: xylocarpous"))

        try writer.delete(kind: .memory, id: "secret")
        try writer.commit(lastAppliedSeq: 2)

        let terms = try run(Self.delve, ["-a", "-1", dir.stubPath]).split(separator: "\n").map(String.init)
        #expect(!terms.contains("Qmemory:secret"))
        #expect(!terms.contains { $0.contains("xylocarp") })
        #expect(!terms.contains("quiz") && !terms.contains("Zquiz"))
        #expect(terms.contains("tent"))  // words other documents still use stay
        let corrected = try run(Self.quest, ["-d", dir.stubPath, "-f", "default,spelling_correction", "xylocarpus"])
        #expect(!corrected.contains("Did you mean"))
        let reader = try IndexReader.open(at: dir.stubPath)
        let spelling = try reader.spellingWords()
        #expect(!spelling.contains("xylocarpous") && !spelling.contains("quiz") && !spelling.contains("remember"))
        #expect(spelling.contains("tent"))
        #expect(try reader.termsAndSpelling(kind: .memory, id: "secret").isEmpty)
        #expect(try search(reader, "xylocarpus").suggestion == nil)
    }

    @Test func delveShowsTheSchema() throws {
        try makeIndex(dir, [IndexDocument(
            kind: .topic, id: "t9", title: "Tides", body: "Spring tides", type: "Learning", tags: ["Sea Life"],
            context: "Personal", curriculumID: "Course-1", created: testNow)])
        let reader = try IndexReader.open(at: dir.stubPath)
        let terms = try reader.documentTerms(kind: .topic, id: "t9")
        for expected in ["Qtopic:t9", "XDOMtopic", "Ksea life", "XTYPElearning", "XCTXpersonal", "XCURR:Course-1", "Stides", "tides", "Ztide"] {
            #expect(terms.contains(expected), "\(expected)")
        }
        let delveTerms = try run(Self.delve, ["-r", "1", dir.stubPath])
        #expect(delveTerms.contains("Qtopic:t9"))
        #expect(try reader.termsAndSpelling(kind: .topic, id: "t9").contains("spelling:spring"))
    }
}
