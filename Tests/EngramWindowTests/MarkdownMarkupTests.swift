import EngramWindow
import Testing

/// A memory's text drawn in the window: Markdown drawn, everything else shown as written.
struct MarkdownMarkupTests {
    @Test func markupWrittenInAMemoryIsShownNotInterpreted() {
        let hostile = #"<span foreground="red">x</span> & <b>bold</b> ${exec rm -rf ~} %{F#f00} 'q' "d""#
        let out = MarkdownMarkup.render(hostile)
        #expect(out == "&lt;span foreground=&quot;red&quot;&gt;x&lt;/span&gt; &amp; &lt;b&gt;bold&lt;/b&gt; ${exec rm -rf ~} %{F#f00} &#39;q&#39; &quot;d&quot;")
    }

    @Test func markdownIsDrawn() {
        #expect(MarkdownMarkup.render("# Title") == #"<span size="x-large" weight="bold">Title</span>"#)
        #expect(MarkdownMarkup.render("- one\n- **two**") == "• one\n• <b>two</b>")
        #expect(MarkdownMarkup.render("use `a<b` here") == "use <tt>a&lt;b</tt> here")
        #expect(MarkdownMarkup.render("```\nlet x = 1 < 2\n```") == "<tt>let x = 1 &lt; 2</tt>")
        #expect(MarkdownMarkup.render("[docs](https://example.org/a?b=1&c=2)") == #"<a href="https://example.org/a?b=1&amp;c=2">docs</a>"#)
    }

    @Test func onlyTheWebAndEngramLinksAreFollowable() {
        #expect(MarkdownMarkup.render("[x](file:///etc/passwd)") == "[x](file:///etc/passwd)")
        #expect(MarkdownMarkup.render("[x](javascript:alert(1))").contains("<a") == false)
        #expect(MarkdownMarkup.render("[see](engram://memory/s404)") == #"<a href="engram://memory/s404">see</a>"#)
        #expect(!MarkdownMarkup.isSafeLink("engram://memory/a b"))
    }

    @Test func controlCharactersAndLongTextStayValid() {
        #expect(MarkdownMarkup.escape("a\u{1}b\u{7F}c\td") == "abc\td")
        let long = String(repeating: "<x> ", count: 40_000)  // 160 KB
        let out = MarkdownMarkup.render(long)
        #expect(!out.contains("<x>"))
        #expect(out.hasSuffix("&lt;x&gt; "))
    }
}
