import EngramTestSupport
import Foundation
import Testing
@testable import EngramCore

@Suite struct TransferTests {
    static let hostile = [
        "<b>bold</b> & <span foreground='red'>red</span>",
        "${exec rm -rf ~} $HOME #comment",
        "%{A1:notify-send pwned:}click%{A}",
        "bell\u{7}byte and unit\u{1F}separator",
        "line one\nline two\r\nline three",
        "مرحبا بالعالم — hello in Arabic",
        "emoji 🧠✨ and CJK 記憶",
        "\"quotes\" and \\backslashes\\ and /slashes/",
    ]

    func export(_ store: Store) throws -> String {
        var out = ""
        try Transfer(store: store).export { out += $0 }
        return out
    }

    @Test func exportThenImportIsLossless() throws {
        let a = TempDir(), b = TempDir()
        let clock = TestClock()
        let source = try makeStore(a, clock: clock)
        var ids: [String] = []
        for (i, text) in Self.hostile.enumerated() {
            clock.advance(days: 0.001234)
            let m = try source.remember(MemoryDraft(content: text, type: MemoryType.allCases[i % 5], tags: ["t\(i % 3)"],
                                                    context: i % 2 == 0 ? "work" : nil, pinned: i == 3)).memory
            ids.append(m.id)
        }
        try source.reinforce(id: ids[1], action: .open)
        try source.link(ids[0], ids[1], origin: .manual)
        try source.link(ids[2], ids[3], origin: .auto, weight: 0.42)
        try source.upsertCurriculum(Curriculum(id: "rust", title: "Rust", description: "Ownership & <borrowing>", created: clock.now),
                                    topics: [Topic(id: "rust-1", curriculumID: "rust", position: 1, title: "Ownership", notes: "moves", flagged: true, created: clock.now)])
        let first = try export(source)
        let target = try makeStore(b, clock: clock)
        let summary = try Transfer(store: target).importJSONLines(first, origin: "backup.jsonl")
        #expect(summary.memories == Self.hostile.count)
        #expect(summary.links == 2)
        #expect(summary.curricula == 1 && summary.topics == 1)
        let second = try export(target)
        #expect(second == first)
        for (id, text) in zip(ids, Self.hostile) {
            #expect(try target.memory(id: id)?.content == text)
        }
        #expect(try target.memories(ids: ids) == source.memories(ids: ids))
    }

    @Test func aBadLineImportsNothingAndNamesTheLine() throws {
        let dir = TempDir()
        let store = try makeStore(dir)
        let text = """
            {"kind":"memory","content":"fine"}
            {"kind":"memory","content":"bad date","created":"yesterday"}
            not json
            """
        do {
            _ = try Transfer(store: store).importJSONLines(text, origin: "x.jsonl")
            Issue.record("bad lines were accepted")
        } catch let e as EngramError {
            #expect(e.description.contains("x.jsonl:2"))
            #expect(e.description.contains("x.jsonl:3"))
        }
        #expect(try store.memoryCount() == 0)
        let partial = try Transfer(store: store).importJSONLines(text, origin: "x.jsonl", skipInvalid: true)
        #expect(partial.memories == 1 && partial.skipped.count == 2)
    }

    @Test func nulBytesAreRefusedNotTruncated() throws {
        let dir = TempDir()
        let store = try makeStore(dir)
        #expect(throws: EngramError.self) { try store.remember(MemoryDraft(content: "before\u{0}after")) }
        #expect(throws: EngramError.self) {
            try Transfer(store: store).importJSONLines(#"{"content":"a\u0000b"}"#, origin: "x")
        }
        #expect(try store.memoryCount() == 0)
    }

    @Test func isoDatesRoundTripToTheMillisecond() throws {
        let d = Date(timeIntervalSince1970: 1_763_800_000.123)
        #expect(ISODate.format(d) == "2025-11-22T08:26:40.123Z")
        #expect(ISODate.parse(ISODate.format(d)) == Date(timeIntervalSince1970: 1_763_800_000.123))
        #expect(ISODate.parse("2026-02-14") == ISODate.parse("2026-02-14T00:00:00Z"))
        #expect(ISODate.parse("2026-02-14T10:00:00+02:00") == ISODate.parse("2026-02-14T08:00:00Z"))
        #expect(ISODate.parse("2026-13-01") == nil)
        #expect(ISODate.parse("yesterday") == nil)
    }

    @Test func invalidUTF8IsRefusedWithItsOffsetOrReplacedOnRequest() throws {
        let data = Data([0x68, 0x69, 0xC3, 0x28, 0x21])
        do {
            _ = try TextInput.decode(data)
            Issue.record("invalid UTF-8 accepted")
        } catch let e as EngramError {
            #expect(e.description.contains("offset 2"))
        }
        #expect(try TextInput.decode(data, lossy: true) == "hi\u{FFFD}(!")
    }

    @Test func aVaultImportsWithFrontMatterAndStableIDs() throws {
        let dir = TempDir()
        let vault = dir.path + "/vault"
        try FileManager.default.createDirectory(atPath: vault + "/reading", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: vault + "/.obsidian", withIntermediateDirectories: true)
        try "---\ntags: [sourdough, Cooking]\ntype: learning\ncreated: 2026-02-14\ncontext: personal\n---\n# Autolyse\nRest flour and water.\n"
            .write(toFile: vault + "/autolyse.md", atomically: true, encoding: .utf8)
        try "---\ntags: single\ndate: 2025-05-01\naliases: [x]\n---\nNo heading here.\n".write(toFile: vault + "/reading/plain note.md", atomically: true, encoding: .utf8)
        try "Just text, no front matter".write(toFile: vault + "/bare.md", atomically: true, encoding: .utf8)
        try "ignored".write(toFile: vault + "/.obsidian/workspace.md", atomically: true, encoding: .utf8)
        let store = try makeStore(dir)
        let s = try VaultImporter(store: store).importFolder(vault)
        #expect(s.memories == 3)
        let all = try store.allMemories()
        let autolyse = try #require(all.first { $0.title == "Autolyse" })
        #expect(autolyse.tags == ["sourdough", "cooking"])
        #expect(autolyse.type == .learning)
        #expect(autolyse.context == "personal")
        #expect(ISODate.day(autolyse.created) == "2026-02-14")
        let plain = try #require(all.first { $0.source == "vault:reading/plain note.md" })
        #expect(plain.title == "plain note")
        #expect(plain.tags == ["single"])
        #expect(ISODate.day(plain.created) == "2025-05-01")
        _ = try VaultImporter(store: store).importFolder(vault)
        #expect(try store.memoryCount() == 3, "re-importing updates instead of duplicating")
    }

    /// An interrupted import is restarted from the top (make stress, part 1): what is already stored must cost a
    /// read, not a second outbox entry for every memory, and a hand-written line must not reset what use did.
    @Test func importingTheSameLinesAgainWritesNothing() throws {
        let dir = TempDir()
        let clock = TestClock()
        let store = try makeStore(dir, clock: clock)
        let lines = (0..<50).map { #"{"kind": "memory", "id": "deb-\#($0)", "content": "package \#($0): a tool", "type": "learning", "tags": ["Utils"]}"# }
            .joined(separator: "\n")
        _ = try Transfer(store: store).importJSONLines(lines, origin: "a.jsonl")
        let seq = try store.latestOutboxSeq()
        #expect(seq == 50)
        try store.reinforce(id: "deb-7", action: .open)
        let used = try #require(try store.memory(id: "deb-7"))
        clock.advance(days: 3)
        let again = try Transfer(store: store).importJSONLines(lines, origin: "a.jsonl")
        #expect(again.memories == 50)
        #expect(try store.latestOutboxSeq() == seq + 1, "only the reinforce wrote an outbox row; the re-import none")
        #expect(try store.memory(id: "deb-7") == used, "re-importing a line without dates keeps the memory's history")
        // A changed line is written, keeps its history, and becomes `updated` now; an export's lines are taken as they are.
        let changed = lines.replacingOccurrences(of: "package 7: a tool", with: "package 7: a better tool")
        _ = try Transfer(store: store).importJSONLines(changed, origin: "a.jsonl")
        #expect(try store.latestOutboxSeq() == seq + 2)
        let m = try #require(try store.memory(id: "deb-7"))
        #expect(m.content == "package 7: a better tool" && m.useCount == used.useCount && m.created == used.created)
        #expect(m.updated == clock.now)
        var exported = ""
        try Transfer(store: store).export { exported += $0 }
        _ = try Transfer(store: store).importJSONLines(exported, origin: "export.jsonl")
        #expect(try store.latestOutboxSeq() == seq + 2, "re-importing an export of the same store changes nothing")
    }

    @Test func curriculaLoadFromTOMLAndYAML() throws {
        let dir = TempDir()
        try """
            id = "rust"
            title = "Rust"
            created = 2026-09-01T10:00:00Z
            [[topics]]
            title = "Ownership"
            done = true
            [[topics]]
            id = "rust-borrow"
            title = "Borrowing"
            flagged = true
            """.write(toFile: dir.path + "/r.toml", atomically: true, encoding: .utf8)
        let (c, topics) = try CurriculumFile.load(path: dir.path + "/r.toml", now: Date())
        #expect(c.id == "rust" && c.title == "Rust")
        #expect(ISODate.format(c.created) == "2026-09-01T10:00:00Z")
        #expect(topics.map(\.id) == ["rust-1", "rust-borrow"])
        #expect(topics[0].done && topics[1].flagged)
        try "title: Spanish to B1\ntopics:\n  - title: Ser vs estar\n    notes: Permanent vs state\n".write(toFile: dir.path + "/s.yaml", atomically: true, encoding: .utf8)
        let (s, st) = try CurriculumFile.load(path: dir.path + "/s.yaml", now: Date())
        #expect(s.id == "spanish-to-b1")
        #expect(st.first?.notes == "Permanent vs state")
        try "title = \"x\"\n[[topics]]\nnotes = \"no title\"\n".write(toFile: dir.path + "/bad.toml", atomically: true, encoding: .utf8)
        #expect(throws: EngramError.self) { try CurriculumFile.load(path: dir.path + "/bad.toml", now: Date()) }
    }
}
