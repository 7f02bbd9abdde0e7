import EngramCore
import Foundation
import EngramApp
import Indexer
import Intents
import Testing

@Suite(.serialized) struct SummaryAndGraphTests {
    func summaryText(_ r: IntentResult) -> String { ([r.sentence] + r.lines).joined(separator: "\n") + "\n" }

    @Test func summaryOfAllTimeMatchesGolden() throws {
        let lib = try TestLibrary()
        let r = try lib.ask("summarize marathon training")
        try expectGolden(summaryText(r), "summary-marathon.txt")
        let s = try #require(r.summary)
        #expect(s.sentences.count == 5)
        #expect(Set(s.sentences.map(\.text)).count == s.sentences.count, "a summary never repeats a sentence")
        #expect(s.sentences.allSatisfy { s.memoryIDs.contains($0.memoryID) })
    }

    @Test func summaryThisWeekOnlyUsesThisWeeksMemories() throws {
        let lib = try TestLibrary()
        let r = try lib.ask("summarize swift this month")
        try expectGolden(summaryText(r), "summary-swift-month.txt")
        let start = TimeRange.month.start(at: sampleNow, calendar: utc)!
        for id in try #require(r.summary).memoryIDs {
            #expect(try lib.library.store.requireMemory(id: id).created >= start, "\(id) is older than the range")
        }
    }

    @Test func summaryOfSomethingNeverNotedSaysSo() throws {
        let lib = try TestLibrary()
        let r = try lib.ask("summarize quantum chromodynamics")
        #expect(r.sentence == "Nothing about quantum chromodynamics to summarize.")
        #expect(r.lines.isEmpty)
    }

    @Test func connectionsAsTextJSONAndDOTMatchGoldens() throws {
        let lib = try TestLibrary()
        let g = try ConnectionGraph.build(store: lib.library.store, center: "s004", depth: 2)
        try expectGolden(g.text(), "graph-s004.txt")
        try expectGolden(g.dot(), "graph-s004.dot")
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .prettyPrinted]
        try expectGolden(String(decoding: try e.encode(g), as: UTF8.self) + "\n", "graph-s004.json")
        #expect(g.nodes.first?.id == "s004")
        #expect(g.nodes.allSatisfy { $0.depth <= 2 })
        let one = try ConnectionGraph.build(store: lib.library.store, center: "s004", depth: 1)
        #expect(one.nodes.count <= g.nodes.count && one.nodes.allSatisfy { $0.depth <= 1 })
    }

    @Test func dotLabelsCannotBreakOutOfTheirQuotes() throws {
        let lib = try TestLibrary(samples: false)
        let a = try lib.library.store.remember(MemoryDraft(content: "say \"hi\"]; evil -- x [label=\\")).memory
        let b = try lib.library.store.remember(MemoryDraft(content: "plain")).memory
        try lib.library.store.link(a.id, b.id, origin: .manual)
        let dot = try ConnectionGraph.build(store: lib.library.store, center: a.id, depth: 1).dot()
        #expect(dot.contains(#"say \"hi\"]; evil -- x [label=\\"#))
        #expect(dot.components(separatedBy: "\n").filter { $0.contains(" -- ") && !$0.contains("evil") }.count == 1)
    }

    @Test func pictureIsRenderedWithGraphviz() throws {
        // `make test` installs graphviz (scripts/install-deps.sh): a missing `dot` is a failure, not a silent pass.
        try #require(GraphRenderer.dotPath != nil, "Graphviz's dot is not installed; run scripts/install-deps.sh")
        let lib = try TestLibrary()
        let out = lib.base + "/g.svg"
        try GraphRenderer.render(try ConnectionGraph.build(store: lib.library.store, center: "s004", depth: 2).dot(), format: "svg", to: out)
        let svg = try String(contentsOfFile: out, encoding: .utf8)
        #expect(svg.contains("<svg") && svg.contains("s004"))
    }
}
