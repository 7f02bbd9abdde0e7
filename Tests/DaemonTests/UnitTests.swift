@testable import Daemon
import EngramCore
import Foundation
import Logging
import Synchronization
import Testing

/// The daemon's pure parts, without a bus.
@Suite struct UnitTests {
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
    }

    @Test func desktopSettingsParseAndRefuseNonsense() throws {
        let s = try DesktopSettings.parse("[desktop]\nopen = \"none\"\nterminal = [\"foot\"]\nmin_letters = 2\n")
        #expect(s.open == .none && s.terminal == ["foot"] && s.minLetters == 2)
        #expect(try DesktopSettings.parse("") == DesktopSettings())
        #expect(try DesktopSettings.parse("[search]\nlimit = 3\n") == DesktopSettings())
        for bad in ["[desktop]\nopen = \"window\"", "[desktop]\nterminal = \"foot -e\"", "[desktop]\nterminal = []",
                    "[desktop]\nmin_letters = 0", "[desktop\n"] {
            #expect(throws: EngramError.self, "\(bad)") { try DesktopSettings.parse(bad) }
        }
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
