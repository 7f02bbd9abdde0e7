import Foundation
import Testing

@testable import Feeds

/// The text every sink starts from, and each sink's own escaping.
@Suite struct DisplayTextTests {
    @Test("control characters become visible pictures; line breaks become spaces on one line")
    func controls() {
        #expect(DisplayText.clean("a\0b\u{1F}c\u{1B}[0m\u{7F}\u{85}") == "a␀b␟c␛[0m␡ ")
        #expect(DisplayText.clean("one\r\ntwo\u{2028}three\tfour") == "one  two three four")
        #expect(DisplayText.clean("one\r\ntwo\u{2029}three", keepNewlines: true) == "one\ntwo\nthree")
        #expect(DisplayText.line("  spaced \n\n out  ") == "spaced out")
    }

    /// The cases the Plasma widget's own `clean` (engram.js) is held to as well, by `make test-shells`: one rule for
    /// display text, in Swift and in JavaScript.
    @Test("the shared cases: Golden/display-text.json")
    func sharedCases() throws {
        struct Case: Decodable { var text: String; var keepNewlines: Bool; var clean: String }
        let url = try #require(Bundle.module.url(forResource: "Golden", withExtension: nil)?.appendingPathComponent("display-text.json"))
        let cases = try JSONDecoder().decode([Case].self, from: Data(contentsOf: url))
        #expect(cases.count >= 10)
        for c in cases {
            #expect(DisplayText.clean(c.text, keepNewlines: c.keepNewlines) == c.clean, "\(c.text.debugDescription)")
        }
    }

    @Test("bidi overrides go; right-to-left text keeps the row left-to-right with an invisible mark")
    func bidi() {
        #expect(DisplayText.line("a\u{202E}b\u{2066}c\u{2069}") == "abc")
        #expect(DisplayText.line("שלום world") == "\u{200E}שלום world")
        #expect(DisplayText.line("plain") == "plain")
        #expect(DisplayText.wrap("مرحبا بالعالم", width: 40, maxLines: 2) == ["\u{200E}مرحبا بالعالم"])
    }

    @Test("cuts keep whole characters and say they cut")
    func truncation() {
        #expect(DisplayText.truncate("abcdef", 4) == "abc…")
        #expect(DisplayText.truncate("abc", 4) == "abc")
        #expect(DisplayText.truncate("👩‍👩‍👧‍👦👩‍👩‍👧‍👦👩‍👩‍👧‍👦", 2) == "👩‍👩‍👧‍👦…")
        let cut = DisplayText.truncate(String(repeating: "é", count: 600), bytes: 1023)
        #expect(cut.utf8.count <= 1023 && cut.hasSuffix("…") && cut.dropLast().allSatisfy { $0 == "é" })
    }

    @Test("wrapping keeps words, paragraphs and a limit")
    func wrapping() {
        #expect(DisplayText.wrap("the quick brown fox jumps", width: 10, maxLines: 5) == ["the quick", "brown fox", "jumps"])
        #expect(DisplayText.wrap("one\n\ntwo", width: 10, maxLines: 5) == ["one", "two"])
        #expect(DisplayText.wrap("aaaa bbbb cccc dddd", width: 9, maxLines: 1) == ["aaaa bbb…"])
        #expect(DisplayText.wrap("abcdefghijkl", width: 5, maxLines: 3) == ["abcde", "fghij", "kl"])
    }

    @Test("each sink's escaping")
    func escaping() {
        #expect(SinkEscaping.pango(#"<b>&"'"#) == "&lt;b&gt;&amp;&quot;&#39;")
        #expect(SinkEscaping.conkyParsed("$5 ${exec x} #1") == "$$5 $${exec x} \\#1")
        #expect(SinkEscaping.polybar("%{A1:x:}y%{A} 100%") == "%\u{200B}{A1:x:}y%\u{200B}{A} 100%")
        #expect(SinkEscaping.jsonString("a\"b\\c\n\u{1}\u{2028}") == #""a\"b\\c\n\u0001\u2028""#)
    }
}
