import EngramCore
import Feeds
import Foundation
import Testing

/// Stored text that tries to break, or take over, a widget, pushed through every feed, size and renderer.
///
/// Each case is a store holding one such memory (due for review, so every list feed shows it) and a capture
/// session with a hostile title. Every output must keep its sink's shape (one line stays one line, JSON
/// stays JSON, the percentage an integer) and show the text literally, with nothing executed.
@Suite struct HostileContentTests {
    /// One hostile memory: its text through the API, or raw SQL for what the API refuses.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var content: String
        var tags: [String] = []
        /// SQL that replaces the stored content afterwards (`?` is the id), for bytes the API refuses.
        var rawContentSQL: String?
        /// What must appear in the plain outputs (text, conky), literally.
        var literal: String?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "Pango markup", content: "<b>bold</b> & <span foreground=\"red\" size='xx-large'>big</span> <i>unclosed &amp; &lt;",
             tags: ["<b>", "a&b"], literal: "<b>bold</b> & <span foreground=\"red\" size='xx-large'>big</span>"),
        Case(name: "Conky variables", content: "costs $5 #1 ${exec echo INJECTED} $HOME ${color red}red${color} \\#",
             tags: ["${exec id}"], literal: "costs $5 #1 ${exec echo INJECTED} $HOME"),
        Case(name: "polybar tags", content: "%{A1:notify-send PWNED:}click me%{A} %{F#f00}red%{F-} 100%{ %%{A}",
             tags: ["%{a1:x:}"], literal: "%{A1:notify-send PWNED:}click me%{A}"),
        Case(name: "terminal escapes and separators", content: "ESC \u{1B}[31mred\u{1B}[0m unit\u{1F}sep bell\u{7} del\u{7F} c1\u{9B}",
             literal: "␛[31mred␛[0m unit␟sep"),
        Case(name: "line breaks", content: "line one\nline two\r\nline three\u{2028}four\u{2029}five\u{85}six\u{B}seven",
             literal: "line one line two line three four five six seven"),
        Case(name: "one megabyte", content: String(repeating: "word ", count: 200_000) + "end", literal: "word word word"),
        Case(name: "right-to-left", content: "שלום עולם \u{202E}evil override\u{202C} مرحبا بالعالم \u{2067}isolate\u{2069}",
             literal: "שלום עולם evil override مرحبا بالعالم isolate"),
        Case(name: "emoji and combining marks", content: String(repeating: "👩‍👩‍👧‍👦 e\u{301}🇫🇷 ", count: 40),
             literal: "👩‍👩‍👧‍👦 e\u{301}🇫🇷"),
        Case(name: "NUL and unit separator (raw SQL)", content: "placeholder",
             rawContentSQL: "UPDATE memory SET content = CAST(X'4E554C00686572651F756E6974' AS TEXT) WHERE id = ?", literal: "NUL␀here␟unit"),
        Case(name: "invalid UTF-8 (raw SQL)", content: "placeholder",
             rawContentSQL: "UPDATE memory SET content = CAST(X'48656C6C6FFFFE20C328206F6B' AS TEXT) WHERE id = ?", literal: "Hello\u{FFFD}"),
        Case(name: "invalid UTF-8 stored as a BLOB", content: "placeholder",
             rawContentSQL: "UPDATE memory SET content = X'626C6F62C0AF0A1F7E', tags = 'not json' WHERE id = ?", literal: "blob\u{FFFD}"),
    ]

    static let sessionTitle = "<b>Capture</b> ${exec rm -rf ~} %{A1:reboot:} #1 \u{1B}[2J\nnext"

    /// A store with the hostile memory (due for review in three days) and a running capture session.
    static func fixture(_ c: Case) throws -> FeedFixture {
        let f = try FeedFixture()
        let reinforced = FeedFixture.now.addingTimeInterval(-68 * 86_400)
        try f.add([Memory(id: "h1", content: c.content, type: .note, tags: c.tags, created: reinforced)])
        if let sql = c.rawContentSQL {
            try f.store.database.write { db in try db.execute(sql: sql, arguments: ["h1"]) }
        }
        try f.at(FeedFixture.now.addingTimeInterval(-600)) { _ = try f.store.startCaptureSession(title: sessionTitle) }
        return f
    }

    @Test("every renderer keeps its shape and shows the text literally", arguments: cases)
    func everyRenderer(_ c: Case) throws {
        let f = try Self.fixture(c)
        for name in FeedName.allCases {
            for size in FeedSize.allCases {
                let result = try f.build(FeedRequest(name, size: size))
                #expect(result.state != .error, "\(c.name): \(name) failed: \(result.message ?? "")")
                for format in FeedFormat.allCases {
                    let output = format.renderer.render(result)
                    let problems = SinkInvariants.check(format, output, result)
                    #expect(problems.isEmpty, "\(c.name) · \(name) \(size) · \(format): \(problems.joined(separator: "; "))\n\(output.prefix(400))")
                }
            }
        }
    }

    @Test("the memory's words appear literally where the whole text is shown", arguments: cases)
    func literal(_ c: Case) throws {
        guard let literal = c.literal else { return }
        let f = try Self.fixture(c)
        let large = try f.build(FeedRequest(.motd, size: .large))
        let waybar = try SinkInvariants.waybarFields(WaybarRenderer().render(large))
        let outputs = [
            "waybar tooltip": SinkInvariants.unescapePango(waybar["tooltip"] as? String ?? ""),
            "text": TextRenderer().render(large),
            "conky": ConkyRenderer(parsed: false).render(large),
        ]
        for (sink, output) in outputs {
            let oneLine = output.replacingOccurrences(of: "\n", with: " ")
            #expect(oneLine.contains(literal), "\(sink) lacks \(literal.debugDescription):\n\(output.prefix(300))")
        }
        let unparsed = SinkInvariants.unescapeConky(ConkyRenderer(parsed: true).render(large))
        #expect(unparsed == ConkyRenderer(parsed: false).render(large), "conky-parsed does not read back as the plain output")
    }

    @Test("a memory holding ${exec …} is not run by a Conky that parses the output")
    func conkyInjection() throws {
        let f = try Self.fixture(Self.cases[1])
        let parsed = ConkyRenderer(parsed: true).render(try f.build(FeedRequest(.motd, size: .large)))
        #expect(parsed.contains("$${exec echo INJECTED}"))
        #expect(parsed.contains("\\#1"))
        #expect(!parsed.replacingOccurrences(of: "$$", with: "").contains("${exec"))
    }

    @Test("polybar action tags in a memory are broken up, the text still shows")
    func polybarInjection() throws {
        let f = try Self.fixture(Self.cases[2])
        for size in FeedSize.allCases {
            let line = PolybarRenderer().render(try f.build(FeedRequest(.motd, size: size)))
            #expect(!line.contains("%{A"), "\(size): \(line)")
            #expect(line.contains("%\u{200B}{A1:notify-send PWNED:}") || size == .small)
        }
    }

    @Test("invalid UTF-8 in the store is read as U+FFFD, the bytes really are invalid")
    func invalidUTF8() throws {
        let f = try Self.fixture(Self.cases[9])
        let hex = try f.store.database.read { db in try String.fetchOne(db, sql: "SELECT hex(content) FROM memory WHERE id = 'h1'") }
        #expect(hex == "48656C6C6FFFFE20C328206F6B")
        let json = JSONRenderer().render(try f.build(FeedRequest(.motd)))
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let content = (object?["memory"] as? [String: Any])?["content"] as? String
        #expect(content == "Hello\u{FFFD}\u{FFFD} \u{FFFD}( ok")
    }

    @Test("a one-megabyte memory is cut, and JSON says it was")
    func longText() throws {
        let f = try Self.fixture(Self.cases[5])
        let result = try f.build(FeedRequest(.motd, size: .large))
        let waybar = try SinkInvariants.waybarFields(WaybarRenderer().render(result))
        #expect((waybar["text"] as? String ?? "").count <= FeedSize.large.titleLimit + 2)
        let json = try JSONSerialization.jsonObject(with: Data(JSONRenderer().render(result).utf8)) as? [String: Any]
        let memory = json?["memory"] as? [String: Any]
        #expect((memory?["content"] as? String)?.count == JSONRenderer.contentLimit)
        #expect(memory?["contentTruncated"] as? Bool == true)
    }

    @Test("right-to-left overrides are dropped so they cannot reorder the rest of the bar")
    func bidiOverrides() throws {
        let f = try Self.fixture(Self.cases[6])
        for format in FeedFormat.allCases where format != .json {
            let out = format.renderer.render(try f.build(FeedRequest(.motd, size: .large)))
            #expect(!out.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) }, "\(format)")
            #expect(out.contains("שלום עולם") || format == .notify && out.contains("שלום"))
        }
    }

    @Test("truncation never splits an emoji or a combining mark")
    func graphemes() throws {
        let original = Self.cases[7].content
        let f = try Self.fixture(Self.cases[7])
        for size in FeedSize.allCases {
            let text = try f.build(FeedRequest(.motd, size: size)).view.text
            let body = String(text.dropFirst(2).dropLast())
            #expect(text.hasSuffix("…"))
            #expect(Array(original).starts(with: Array(body.trimmingCharacters(in: .whitespaces))), "\(size): \(text)")
        }
    }
}

/// What each sink needs from its output, checked from the outside.
enum SinkInvariants {
    static let entities = ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"]

    /// Every broken promise of `output` for `format`; empty when all hold.
    static func check(_ format: FeedFormat, _ output: String, _ result: FeedResult) -> [String] {
        var problems: [String] = []
        func controls(_ s: String, allowNewline: Bool) -> Bool {
            s.unicodeScalars.contains { ($0.value < 0x20 && !(allowNewline && $0 == "\n")) || $0.value == 0x7F || (0x80...0x9F).contains($0.value) }
        }
        let lines = output.components(separatedBy: "\n")
        let shown = result.payload.shownMemoriesCount
        switch format {
        case .waybar:
            if lines.count != 1 { problems.append("\(lines.count) lines") }
            do {
                let o = try waybarFields(output)
                for key in ["text", "alt", "tooltip"] {
                    guard let v = o[key] as? String else { problems.append("\(key) missing"); continue }
                    if !pangoSafe(v) { problems.append("\(key) is not escaped markup") }
                    if controls(v, allowNewline: key == "tooltip") { problems.append("\(key) holds control characters") }
                }
                if (o["text"] as? String ?? "").contains("\n") { problems.append("text spans lines") }
                if !(o["class"] is [String]) { problems.append("class is not a list of strings") }
                if output.range(of: #""percentage":(100|[1-9]?[0-9])\}$"#, options: .regularExpression) == nil {
                    problems.append("percentage is not an integer 0…100 at the end")
                }
            } catch { problems.append("not JSON: \(error)") }
        case .json:
            if lines.count != 1 { problems.append("\(lines.count) lines") }
            do {
                let o = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
                if o?["version"] as? Int != 1 { problems.append("version is not 1") }
                let display = o?["display"] as? [String: Any]
                if let t = display?["text"] as? String, controls(t, allowNewline: false) { problems.append("display.text holds control characters") }
                if output.range(of: #""percentage":(100|[1-9]?[0-9]),"#, options: .regularExpression) == nil { problems.append("percentage is not an integer") }
            } catch { problems.append("not JSON: \(error)") }
        case .conky, .text:
            if controls(output, allowNewline: true) { problems.append("control characters") }
            if lines.count > 20 { problems.append("\(lines.count) lines") }
            if lines.contains(where: { $0.count > 200 }) { problems.append("a line over 200 characters") }
        case .conkyParsed:
            if controls(output, allowNewline: true) { problems.append("control characters") }
            if !conkyParsedSafe(output) { problems.append("an unescaped $ or #") }
        case .i3blocks:
            if !(2...3).contains(lines.count) { problems.append("\(lines.count) lines") }
            if lines[0].utf8.count > 1023 { problems.append("full_text over 1023 bytes") }
            if lines.count > 1 && lines[1].utf8.count > 511 { problems.append("short_text over 511 bytes") }
            if lines.count == 3 && lines[2].range(of: "^#[0-9a-f]{6}$", options: .regularExpression) == nil { problems.append("colour line \(lines[2])") }
            if controls(output, allowNewline: true) { problems.append("control characters") }
        case .polybar:
            if lines.count != 1 { problems.append("\(lines.count) lines") }
            var inner = output
            if let r = inner.range(of: "^%\\{F#[0-9a-f]{6}\\}", options: .regularExpression) { inner.removeSubrange(r) }
            if inner.hasSuffix("%{F-}") { inner.removeLast(5) }
            if inner.contains("%{") { problems.append("a %{ tag from stored text") }
            if controls(output, allowNewline: false) { problems.append("control characters") }
        case .notify:
            if !output.isEmpty {
                let body = lines.dropFirst().joined(separator: "\n")
                if !pangoSafe(body) { problems.append("body is not escaped markup") }
                if controls(output, allowNewline: true) { problems.append("control characters") }
            }
        case .rofi:
            if shown > 0 {
                if lines.count != shown { problems.append("\(lines.count) rows for \(shown) memories") }
                for row in lines {
                    if row.filter({ $0 == "\0" }).count != 1 { problems.append("a row without exactly one \\0") }
                    if row.unicodeScalars.filter({ $0 == "\u{1F}" }).count != 5 { problems.append("a row without exactly five \\x1f") }
                    if row.hasPrefix("\0") { problems.append("an empty row text") }
                }
            }
        case .dmenu:
            if shown > 0 {
                if lines.count != shown { problems.append("\(lines.count) lines for \(shown) memories") }
                if lines.contains(where: { !$0.hasSuffix("⟩") }) { problems.append("a line not ending in ⟨id⟩") }
            }
            if controls(output, allowNewline: true) { problems.append("control characters") }
        }
        return problems
    }

    /// The object of a Waybar line.
    static func waybarFields(_ line: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
    }

    /// No `<` or `>`, and every `&` starts one of the five entities.
    static func pangoSafe(_ s: String) -> Bool {
        if s.contains("<") || s.contains(">") { return false }
        var rest = Substring(s)
        while let amp = rest.firstIndex(of: "&") {
            let tail = rest[amp...]
            guard entities.contains(where: { tail.hasPrefix($0) }) else { return false }
            rest = rest[rest.index(after: amp)...]
        }
        return true
    }

    /// Pango-escaped text back to plain text.
    static func unescapePango(_ s: String) -> String {
        s.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// Conky-parsed text with only `$$`, `\#` and the feed's own `${color …}` — read as Conky reads it.
    static func conkyParsedSafe(_ s: String) -> Bool {
        let c = Array(s)
        var i = 0
        while i < c.count {
            if c[i] == "$" {
                if i + 1 < c.count && c[i + 1] == "$" { i += 2; continue }
                let rest = String(c[i...])
                if let r = rest.range(of: "^\\$\\{color( #[0-9a-f]{6})?\\}", options: .regularExpression) {
                    i += rest.distance(from: rest.startIndex, to: r.upperBound)
                    continue
                }
                return false
            }
            if c[i] == "#" && (i == 0 || c[i - 1] != "\\") { return false }
            i += 1
        }
        return true
    }

    /// Conky-parsed text read back as Conky shows it: the feed's `${color}` dropped, `$$` → `$`, `\#` → `#`.
    static func unescapeConky(_ s: String) -> String {
        let c = Array(s)
        var out = ""
        var i = 0
        while i < c.count {
            if c[i] == "$" && i + 1 < c.count && c[i + 1] == "$" { out.append("$"); i += 2; continue }
            if c[i] == "\\" && i + 1 < c.count && c[i + 1] == "#" { out.append("#"); i += 2; continue }
            if c[i] == "$", let end = c[i...].firstIndex(of: "}"), String(c[i...end]).hasPrefix("${color") { i = end + 1; continue }
            out.append(c[i])
            i += 1
        }
        return out
    }
}

extension FeedPayload {
    /// How many memories list sinks (rofi, dmenu) show.
    var shownMemoriesCount: Int {
        switch self {
        case .memory(let d): d == nil ? 0 : 1
        case .memories(let list): list.count
        case .review(_, let list): list.count
        case .none, .stats, .session: 0
        }
    }
}
