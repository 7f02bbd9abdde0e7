import EngramApp
@testable import Indexer
import Testing

@Suite("Snippet")
struct SnippetTests {
    @Test func shimOutputBecomesUnescapedSegments() {
        let snippet = Snippet(shimOutput: "\u{2026}fish &amp; \u{02}chips\u{03} &lt;b&gt; &quot;x&quot; &#39;y&#x27; \u{02}end\u{03}")
        #expect(snippet.segments == [
            .init(text: "\u{2026}fish & ", highlighted: false),
            .init(text: "chips", highlighted: true),
            .init(text: " <b> \"x\" 'y' ", highlighted: false),
            .init(text: "end", highlighted: true),
        ])
        #expect(snippet.plainText == "\u{2026}fish & chips <b> \"x\" 'y' end")
    }

    @Test func eachSinkEscapesForItself() {
        let snippet = Snippet(shimOutput: "a &lt;&amp;&gt; \u{02}b&amp;c\u{03}")
        let pango = snippet.rendered(open: "<b>", close: "</b>") {
            $0.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;")
        }
        #expect(pango == "a &lt;&amp;&gt; <b>b&amp;c</b>")
        #expect(snippet.rendered(open: "\u{1B}[1m", close: "\u{1B}[0m") { $0 } == "a <&> \u{1B}[1mb&c\u{1B}[0m")
    }

    @Test func whitespaceAndNewlinesFoldToSingleSpaces() {
        let snippet = Snippet(shimOutput: "  line one\n\n\tline\r\ntwo \u{02}hit\u{03}\n")
        #expect(snippet.plainText == "line one line two hit")
        #expect(snippet.segments.last == .init(text: "hit", highlighted: true))
        let spaced = Snippet(shimOutput: "a \u{02}b\u{03} \u{02}c\u{03}")
        #expect(spaced.segments == [.init(text: "a ", highlighted: false), .init(text: "b", highlighted: true),
                                    .init(text: " ", highlighted: false), .init(text: "c", highlighted: true)])
    }

    @Test func strayAmpersandsAndUnknownEntitiesAreKept() {
        #expect(Snippet(shimOutput: "AT&T &bogus; &#xZZ; &").plainText == "AT&T &bogus; &#xZZ; &")
        #expect(Snippet(shimOutput: "").segments.isEmpty)
    }
}
