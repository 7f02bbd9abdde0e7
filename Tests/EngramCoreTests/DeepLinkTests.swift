import Testing
@testable import EngramCore

@Suite struct DeepLinkTests {
    @Test func knownLinksParse() throws {
        #expect(try DeepLink.parse("engram://memory/ab12cd") == .memory(id: "ab12cd"))
        #expect(try DeepLink.parse("ENGRAM://memory/ab12cd") == .memory(id: "ab12cd"))
        #expect(try DeepLink.parse("engram://search?q=sourdough%20starter") == .search(query: "sourdough starter"))
        #expect(try DeepLink.parse("engram://search?q=tag:swift+actors") == .search(query: "tag:swift actors"))
        #expect(try DeepLink.parse("engram://curriculum/swift-concurrency") == .curriculum(id: "swift-concurrency"))
        #expect(try DeepLink.parse("engram://topic/spanish-b1-3") == .topic(id: "spanish-b1-3"))
        #expect(try DeepLink.parse("engram://session/start?curriculum=rust&topic=rust-2") == .sessionStart(curriculumID: "rust", topicID: "rust-2"))
        #expect(try DeepLink.parse("engram://session/pause") == .session(action: .pause, id: nil))
        #expect(try DeepLink.parse("engram://session/stop?id=s1") == .session(action: .stop, id: "s1"))
        #expect(try DeepLink.parse("engram://remember?text=%3Cb%3Ehi%3C%2Fb%3E&type=idea&tag=X") == .remember(text: "<b>hi</b>", type: .idea, tags: ["x"]))
        #expect(try DeepLink.parse("engram://review") == .review)
        #expect(try DeepLink.parse("engram://context/work") == .context(name: "work"))
        #expect(try DeepLink.parse("engram://context") == .context(name: nil))
    }

    @Test func canonicalTextRoundTrips() throws {
        let links: [DeepLink] = [.memory(id: "a1"), .search(query: "a & b ${exec x} %{A1:y:}"), .sessionStart(curriculumID: "c", topicID: "t"),
                                 .remember(text: "línea\nnueva 🧠", type: .quote, tags: ["books"]), .session(action: .resume, id: nil), .context(name: "sleep")]
        for l in links { #expect(try DeepLink.parse(l.url) == l) }
    }

    @Test func malformedOrUnknownLinksAreRefused() {
        for text in ["http://memory/x", "engram://launch/x", "engram://memory/", "engram://memory/a/b", "engram://memory/..%2F..%2Fetc",
                     "engram://memory/x;rm -rf", "engram://search", "engram://search?q=", "engram://search?q=a&q=b",
                     "engram://search?q=%FF%FE", "engram://memory/x?exec=1", "engram://user:pw@memory/x", "engram://memory:80/x",
                     "engram://session/explode", "engram://session/start", "engram://session/start?curriculum=../../x",
                     "engram://remember?text=a%00b", "engram://memory/x#frag", "engram://memory/a b", "engram://memory/x\n",
                     "engram://" + String(repeating: "a", count: 9000), "", "engram:", "engram:memory/x"] {
            #expect(throws: EngramError.self, "accepted \(text.prefix(60))") { try DeepLink.parse(text) }
        }
    }
}
