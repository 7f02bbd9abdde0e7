@testable import Daemon
import EngramCore
import Foundation
import Logging
import Synchronization
import Testing

/// The daemon's pure parts, without a bus.
@Suite struct UnitTests {
    @Test func descriptionsSayWhatTheTitleDoesNot() {
        let title = "Weekend sourdough schedule that works for me:"
        // The snippet runs from inside the title into the body: only the body is left.
        #expect(ResultItem.beyondTitle("…sourdough schedule that works for me: 1. Fri 22:00 feed the starter…", title: title)
                == "1. Fri 22:00 feed the starter…")
        #expect(ResultItem.beyondTitle(title + " 1. Fri 22:00 feed", title: title) == "1. Fri 22:00 feed")
        // Inside the title, or the title and nothing more: nothing to add.
        #expect(ResultItem.beyondTitle(title, title: title) == nil)
        #expect(ResultItem.beyondTitle("…schedule that works…", title: title) == nil)
        #expect(ResultItem.beyondTitle("Search quality: 'sourdough' doesn't find…", title: "Search quality: 'sourdough' doesn't find the 'levain' notes.") == nil)
        // From the body: kept as it is, even when it starts with the title's last word.
        #expect(ResultItem.beyondTitle("…the levain, then the salt…", title: title) == "…the levain, then the salt…")
        #expect(ResultItem.beyondTitle("…bread rises overnight", title: "Notes on bread") == "…bread rises overnight")
        #expect(ResultItem.beyondTitle("…", title: title) == nil)
    }

    /// An alert's summary is plain text on every server (escaping it would show `&amp;`); its body is escaped only
    /// for servers that read bodies as markup.
    @Test func alertsAreShownLiterallyWithAndWithoutBodyMarkup() {
        let marked = IntentAlerts.request(summary: "Reminder: Q&A <prep>", body: "bring <b>notes</b> & pens", actions: [], markup: true)
        #expect(marked.summary == "Reminder: Q&A <prep>")
        #expect(marked.body == "bring &lt;b&gt;notes&lt;/b&gt; &amp; pens")
        let plain = IntentAlerts.request(summary: "Reminder: Q&A <prep>", body: "bring <b>notes</b> & pens", actions: [], markup: false)
        #expect(plain.summary == "Reminder: Q&A <prep>")
        #expect(plain.body == "bring <b>notes</b> & pens")
    }

    @Test func journalLinesCarryThePriorityAndStayOnOneLine() {
        #expect(JournalLogHandler.line(level: .info, message: "ready", metadata: ["pid": "7", "data": "/x"]) == "<6>ready data=/x pid=7")
        #expect(JournalLogHandler.line(level: .error, message: "two\nlines\u{1B}[31m", metadata: [:]) == "<3>two\\nlines[31m")
        #expect(JournalLogHandler.line(level: .warning, message: "w", metadata: ["e": "a\nb"]) == "<4>w e=a\\nb")
        #expect([Logger.Level.trace, .debug, .info, .notice, .warning, .error, .critical].map(JournalLogHandler.priority(of:))
                == [7, 7, 6, 5, 4, 3, 2])
        let lines = Mutex<[String]>([])
        var logger = Logger(label: "t") { JournalLogHandler(label: $0, level: .info) { line in lines.withLock { $0.append(line) } } }
        logger[metadataKey: "unit"] = "x"
        logger.debug("hidden")
        logger.notice("shown", metadata: ["n": "1"])
        #expect(lines.withLock { $0 } == ["<5>shown n=1 unit=x"])
    }

    @Test(arguments: [[Double](), [1], [0.5, 0.5, 0.5, 0.5], [0.9, 0.95, 0.1, 0.1, 0.0], Array(repeating: 0.0, count: 50),
                      [.nan, 2, -1]])
    func krunnerRelevancesStrictlyDecreaseWhateverXapianSays(_ xapian: [Double]) {
        let r = KRunner1.relevances(xapian)
        #expect(r.count == xapian.count)
        #expect(zip(r, r.dropFirst()).allSatisfy { $0 > $1 }, "\(r)")
        #expect(r.allSatisfy { $0 > 0 && $0 <= 0.9 })
    }

    /// KRunner's list elides a long text in the middle and then has no room for the subtext: texts are cut at a word.
    @Test func krunnerTextsAreShortAndCutAtAWord() {
        let long = "Search quality: 'sourdough' doesn't find the 'levain' notes. Xapian can do it with a synonym"
        let short = KRunner1.shortTitle(long)
        #expect(short == "Search quality: 'sourdough' doesn't find the…", "\(short)")
        #expect(short.count <= KRunner1.textLimit)
        #expect(KRunner1.shortTitle("Weekend sourdough schedule that works for me:") == "Weekend sourdough schedule that works for me:")
        let word = String(repeating: "x", count: 100)
        #expect(KRunner1.shortTitle(word).count == KRunner1.textLimit, "one long word is cut inside it")
        #expect(KRunner1.shortTitle("é" + word).hasPrefix("é"))
    }

    @Test func aStrongerBestHitRanksHigherAgainstOtherRunners() {
        #expect(KRunner1.relevances([1.0])[0] > KRunner1.relevances([0.2])[0])
    }

    @Test func terminalArgvIsTerminalThenEngramNeverAShellLine() {
        let launcher = TerminalLauncher(terminal: ["gnome-terminal", "--"], engram: "/usr/bin/engram", dataDirectory: "/d",
                                        useSystemdScope: false, log: Logger(label: "t"))
        #expect(launcher.argv(for: .show(memoryID: "-k3")) == ["gnome-terminal", "--", "/usr/bin/engram", "show", "--data-dir", "/d",
                                                               "--peek", "--pause", "--", "-k3"])
        #expect(launcher.argv(for: .search(terms: ["a b", "$(x)"])) == ["gnome-terminal", "--", "/usr/bin/engram", "search",
                                                                        "--data-dir", "/d", "--pause", "--", "a b", "$(x)"])
        let scoped = TerminalLauncher(terminal: ["konsole", "-e"], engram: "/e", dataDirectory: "/d", useSystemdScope: true,
                                      log: Logger(label: "t"))
        #expect(scoped.argv(for: .open(url: "engram://curriculum/c"))?.prefix(6)
                == ["systemd-run", "--user", "--scope", "--quiet", "--collect", "--"])
        let none = TerminalLauncher(terminal: nil, engram: "/e", dataDirectory: "/d", useSystemdScope: false, log: Logger(label: "t"))
        #expect(none.argv(for: .search(terms: ["x"])) == nil)
    }

    @Test func theTerminalIsConfiguredThenTERMINALThenTheDesktopsOwn() {
        let all: Set<String> = ["kgx", "gnome-terminal", "konsole", "xterm", "x-terminal-emulator", "foot"]
        let exists = { (p: String) in all.contains(p) }
        #expect(TerminalLauncher.detect(configured: ["my-term"], environment: ["TERMINAL": "foot"], exists: exists) == ["my-term"])
        #expect(TerminalLauncher.detect(configured: nil, environment: ["TERMINAL": "foot"], exists: exists) == ["foot", "-e"])
        #expect(TerminalLauncher.detect(configured: nil, environment: ["XDG_CURRENT_DESKTOP": "ubuntu:GNOME"], exists: exists) == ["kgx", "--"])
        #expect(TerminalLauncher.detect(configured: nil, environment: ["XDG_CURRENT_DESKTOP": "KDE"], exists: exists) == ["konsole", "-e"])
        #expect(TerminalLauncher.detect(configured: nil, environment: [:], exists: exists) == ["x-terminal-emulator", "-e"])
        #expect(TerminalLauncher.detect(configured: nil, environment: [:], exists: { _ in false }) == nil)
        // xdg-terminal-exec, where installed, knows the person's default terminal; it takes the command as its arguments.
        let withExec = { (p: String) in all.contains(p) || p == "xdg-terminal-exec" }
        #expect(TerminalLauncher.detect(configured: nil, environment: ["XDG_CURRENT_DESKTOP": "GNOME"], exists: withExec) == ["xdg-terminal-exec"])
        #expect(TerminalLauncher.detect(configured: nil, environment: ["TERMINAL": "foot"], exists: withExec) == ["foot", "-e"])
        // Fedora's GNOME: Ptyxis, and no x-terminal-emulator; found on GNOME and elsewhere.
        let fedora = { (p: String) in p == "ptyxis" }
        #expect(TerminalLauncher.detect(configured: nil, environment: ["XDG_CURRENT_DESKTOP": "GNOME"], exists: fedora) == ["ptyxis", "--"])
        #expect(TerminalLauncher.detect(configured: nil, environment: [:], exists: fedora) == ["ptyxis", "--"])
        let both = { (p: String) in p == "ptyxis" || p == "kgx" }
        #expect(TerminalLauncher.detect(configured: nil, environment: ["XDG_CURRENT_DESKTOP": "GNOME"], exists: both) == ["ptyxis", "--"])
        // The argv each gets: the command after the prefix, as separate arguments.
        let ptyxis = TerminalLauncher(terminal: ["ptyxis", "--"], engram: "/e", dataDirectory: "/d", useSystemdScope: false, log: Logger(label: "t"))
        #expect(ptyxis.argv(for: .show(memoryID: "s1")) == ["ptyxis", "--", "/e", "show", "--data-dir", "/d", "--peek", "--pause", "--", "s1"])
        let exec = TerminalLauncher(terminal: ["xdg-terminal-exec"], engram: "/e", dataDirectory: "/d", useSystemdScope: false, log: Logger(label: "t"))
        #expect(exec.argv(for: .search(terms: ["a b"])) == ["xdg-terminal-exec", "/e", "search", "--data-dir", "/d", "--pause", "--", "a b"])
    }

    /// `[desktop]` as the daemon reads it: from the config the library loaded once.
    func desktopSettings(_ toml: String) throws -> DesktopSettings { try EngramConfig.parse(toml).desktop }

    @Test func desktopSettingsParseAndRefuseNonsense() throws {
        let s = try desktopSettings("[desktop]\nopen = \"none\"\nterminal = [\"foot\"]\nmin_letters = 2\n")
        #expect(s.open == .none && s.terminal == ["foot"] && s.minLetters == 2)
        #expect(try desktopSettings("") == DesktopSettings())
        #expect(try desktopSettings("[search]\nlimit = 3\n") == DesktopSettings())
        for bad in ["[desktop]\nopen = \"window\"", "[desktop]\nterminal = \"foot -e\"", "[desktop]\nterminal = []",
                    "[desktop]\nmin_letters = 0", "[desktop\n"] {
            #expect(throws: EngramError.self, "\(bad)") { try desktopSettings(bad) }
        }
    }

    /// The properties' counts come from indexed queries; they must agree with `Store.stats`, which reads every memory.
    @Test(arguments: [0, 1, 3])
    func glanceCountsAgreeWithStats(daysSinceLastCapture: Int) throws {
        let dir = NSTemporaryDirectory() + "engram-glance-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let utc = TimeZone(identifier: "UTC")!
        let now = ISODate.parse("2026-11-22T15:30:00Z")!
        let store = try Store(path: dir + "/engram.sqlite", clock: { now })
        // Captures on a run of four days ending `daysSinceLastCapture` days ago, an older one after a gap,
        // and two in the small hours of the last day.
        var memories: [Memory] = []
        for (n, daysAgo) in [0, 0, 1, 2, 3, 6].enumerated() {
            let hour = n == 1 ? 0.5 : 10.0
            let created = now.addingTimeInterval(-Double(daysAgo + daysSinceLastCapture) * 86_400 - 15.5 * 3600 + hour * 3600)
            memories.append(Memory(id: "m\(n)", content: "memory \(n)", created: created))
        }
        try store.upsertMemories(memories)
        let stats = try store.stats(now: now, decay: .standard, timeZone: utc)
        let counts = try store.glanceCounts(now: now, timeZone: utc)
        #expect(counts.total == stats.total && counts.total == 6)
        #expect(counts.today == stats.today)
        #expect(counts.streakDays == stats.streakDays)
        #expect(counts.streakDays == (daysSinceLastCapture <= 1 ? 4 : 0))
    }

    @Test func resultTextIsOneLineAndShort() {
        #expect(ResultItem.oneLine("  a\n\n b\t\u{7}c  ") == "a b c")
        let long = ResultItem.truncate(String(repeating: "x", count: 500))
        #expect(long.count == ResultItem.descriptionLimit && long.hasSuffix("…"))
        let unknown = ResultItem.unknown(id: "engram://memory/zz")
        #expect(unknown.title == "No longer in Engram" && !unknown.isKnown)
        #expect(SearchProvider2.meta(unknown)["id"]?.stringValue == "engram://memory/zz")
        #expect(SearchProvider2.meta(unknown)["clipboardText"] == nil)
    }
}

/// The daemon's one event stream: each subscriber hears only the kinds it asked for, a burst wakes it once (the newest
/// kept), and `finish()` ends every stream so the services' loops end at shutdown.
@Suite struct LibraryEventsTests {
    @Test func subscribersHearTheirKindsOnceABurstAndEndAtFinish() async {
        let events = LibraryEvents()
        let search = events.subscribe(to: [.committed, .storeChanged])
        let keeperOnly = events.subscribe(to: [.committed])
        for _ in 0..<100 { events.post(.storeChanged) }  // an import's burst of store changes
        events.post(.committed)
        events.finish()
        var heard: [LibraryEvent] = []
        for await e in search { heard.append(e) }
        #expect(heard == [.committed], "the newest of the burst, once: \(heard)")
        var onlyCommits: [LibraryEvent] = []
        for await e in keeperOnly { onlyCommits.append(e) }
        #expect(onlyCommits == [.committed])

        // After finish, a new subscriber is live again and earlier streams stay ended.
        let late = events.subscribe(to: [.storeChanged])
        events.post(.committed)  // not its kind
        events.post(.storeChanged)
        events.finish()
        var lateHeard: [LibraryEvent] = []
        for await e in late { lateHeard.append(e) }
        #expect(lateHeard == [.storeChanged])
    }

    /// Another program's write to the store is answered at once and once more after it settles (a commit becomes
    /// visible after its last write to the WAL file, which no later event announces), in both ways of watching;
    /// when nothing more is written, nothing more is called.
    @Test(arguments: [true, false])
    func aWriteIsNoticedAtOnceAndAgainOnceItSettles(inotify: Bool) async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("engram-watch-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let wal = dir + "/engram.sqlite-wal"
        #expect(FileManager.default.createFile(atPath: wal, contents: Data()))
        let calls = Mutex<[ContinuousClock.Instant]>([])
        let watcher = StoreWatcher(directory: dir, files: ["engram.sqlite-wal"], queue: DispatchQueue(label: "watch-test"),
                                   pollInterval: .milliseconds(20), settle: .milliseconds(150), useInotify: inotify) {
            calls.withLock { $0.append(.now) }
        }
        defer { watcher.cancel() }
        try await Task.sleep(for: .milliseconds(100))
        let handle = try #require(FileHandle(forWritingAtPath: wal))
        handle.seekToEndOfFile()
        handle.write(Data("frame".utf8))
        try handle.close()
        let written = ContinuousClock.now
        try await Task.sleep(for: .milliseconds(600))
        let seen = calls.withLock { $0 }
        #expect(seen.count >= 2, "\(seen.count) calls")
        #expect(seen.first.map { $0 - written < .milliseconds(140) } == true, "the first call came \(seen.first.map { $0 - written } ?? .zero) after the write")
        #expect(seen.last.map { $0 - written >= .milliseconds(150) } == true, "the last call came \(seen.last.map { $0 - written } ?? .zero) after the write")
        try await Task.sleep(for: .milliseconds(400))
        #expect(calls.withLock { $0.count } == seen.count, "called again with nothing written")
    }
}
