import Foundation
import Testing

/// GNOME Shell's calls, made with gdbus exactly as gnome-shell 43 makes them (the first call D-Bus-activates the daemon).
@Suite struct GnomeShellTests {
    typealias D = DaemonFixture

    @Test func firstSearchSubsearchAndMetasAreWhatTheShellNeeds() async throws {
        try await withDaemon { d in
            // As the user types "sourd": the last word is a prefix.
            let initial = try d.initialResultSet(["sourd"])
            #expect(initial.contains("engram://memory/s106") && initial.contains("engram://memory/s165"), "got \(initial)")
            #expect(initial.count <= 20)
            #expect(initial.allSatisfy { $0.hasPrefix("engram://") })
            #expect(Set(initial).count == initial.count, "ids repeat: \(initial)")

            // Typing on: the shell passes the previous ids (here none at all); the query is re-run, not narrowed.
            let sub = try d.gdbusValue(D.providerPath, D.provider, "GetSubsearchResultSet",
                                       ["@as []", "['sourdough', 'focac']"]).first as? [String] ?? []
            #expect(sub == ["engram://memory/s165"], "got \(sub)")

            // Metas for exactly the ids asked, in order: known, forgotten, foreign.
            let asked = ["engram://memory/s106", "engram://memory/gone-for-good", "not-ours", "engram://curriculum/swift-concurrency"]
            let metas = try d.gdbusValue(D.providerPath, D.provider, "GetResultMetas", [D.gvariantStrings(asked)])
                .first as? [[String: Any]] ?? []
            #expect(metas.count == asked.count)
            #expect(metas.map { $0["id"] as? String } == asked)
            for meta in metas {
                let name = meta["name"] as? String ?? ""
                #expect(!name.isEmpty, "a meta without a name drops the section: \(meta)")
                #expect(!(meta["description"] as? String ?? "\n").contains("\n"))
            }
            let s106 = try d.memory("s106")
            #expect(metas[0]["name"] as? String == "Weekend sourdough schedule that works for me:")
            #expect(metas[0]["clipboardText"] as? String == s106["content"] as? String)
            #expect((s106["content"] as? String ?? "").contains("\n"), "a multi-line memory, to check the description")
            let icon = metas[0]["icon"] as? [Any]
            #expect(icon?.first as? String == "themed")
            #expect(icon?.last as? [String] == ["text-x-generic", "text-x-generic-symbolic"], "s106 is a note: \(String(describing: icon))")
            #expect(metas[1]["name"] as? String == "No longer in Engram")
            #expect(metas[2]["name"] as? String == "Not an Engram result")
            #expect(metas[3]["name"] as? String == "Swift Concurrency")
        }
    }

    /// The shell shows five of the twenty ids; the search reads only those whole. Metas asked for the others (a shell
    /// that shows more) come from the store: the memory's own title and text, never a placeholder.
    @Test func metasOfIdsPastTheFifthAreComplete() async throws {
        try await withDaemon { d in
            let ids = try d.initialResultSet(["the"])
            #expect(ids.count > 8, "need more than five results: \(ids)")
            let later = Array(ids.dropFirst(5).prefix(10))
            let metas = try d.gdbusValue(D.providerPath, D.provider, "GetResultMetas", [D.gvariantStrings(later)])
                .first as? [[String: Any]] ?? []
            #expect(metas.map { $0["id"] as? String } == later)
            var memoriesChecked = 0
            for meta in metas {
                let id = try #require((meta["id"] as? String)?.split(separator: "/").last.map(String.init))
                guard (meta["id"] as? String ?? "").hasPrefix("engram://memory/") else { continue }
                let content = try d.memory(id)["content"] as? String ?? ""
                #expect(meta["clipboardText"] as? String == content, "\(meta)")
                let name = meta["name"] as? String ?? ""
                #expect(!name.isEmpty && content.hasPrefix(name.trimmingCharacters(in: CharacterSet(charactersIn: "…"))), "\(meta)")
                memoriesChecked += 1
            }
            #expect(memoriesChecked >= 3, "the ids past the fifth held too few memories to check: \(later)")
        }
    }

    /// The daemon's own startup variables (here stale ones, as a session could leave) never reach the terminal: GNOME's
    /// timestamp does, as an X11 startup id.
    static let staleStartup = ["DESKTOP_STARTUP_ID": "stale-startup-id_TIME1", "XDG_ACTIVATION_TOKEN": "stale-token"]

    /// The line under a result's name adds to it: the text after the title, or type, tags and date, never the title again.
    @Test func descriptionsOfTheSamplesDoNotRepeatTheirNames() async throws {
        try await withDaemon { d in
            var checked = 0
            for query in ["sourdough", "swift actors", "meditations", "xapian", "git", "marathon", "subjunctive", "stoic", "bread"] {
                let ids = try d.initialResultSet(query.split(separator: " ").map(String.init))
                let metas = try d.gdbusValue(D.providerPath, D.provider, "GetResultMetas", [D.gvariantStrings(Array(ids.prefix(10)))])
                    .first as? [[String: Any]] ?? []
                for meta in metas {
                    let name = meta["name"] as? String ?? "", description = meta["description"] as? String ?? ""
                    #expect(!description.isEmpty, "\(meta)")
                    // The first words of the description, past any "…", are not words of the name in a row.
                    let opening = description.drop { $0 == "…" }.split(separator: " ").prefix(4).joined(separator: " ")
                    #expect(!name.contains(opening), "\(meta["id"] ?? "?"): “\(description)” repeats “\(name)”")
                    checked += 1
                }
            }
            #expect(checked >= 40)
            // s106 is several lines under a short title: its description is where the schedule starts.
            // (A commit between the two calls, such as a sweep, drops the search's snippets: the meta then
            // carries the summary, and the shell's next keystroke the snippet again.)
            var description = ""
            let found = try await eventually {
                guard try d.initialResultSet(["sourdough", "schedule"]).first == "engram://memory/s106" else { return false }
                let metas = try d.gdbusValue(D.providerPath, D.provider, "GetResultMetas", ["['engram://memory/s106']"]).first as? [[String: Any]]
                description = metas?.first?["description"] as? String ?? ""
                return description.hasPrefix("1. Fri 22:00 feed the starter")
            }
            #expect(found, "s106: \(description)")
        }
    }

    @Test func activatingAResultStrengthensTheMemoryAndShowsItInATerminal() async throws {
        try await withDaemon(environment: Self.staleStartup) { d in
            let before = try #require(d.memory("s165")["useCount"] as? Int)
            _ = try d.initialResultSet(["focaccia"])
            let out = try d.gdbus(D.providerPath, D.provider, "ActivateResult", ["'engram://memory/s165'", "['focaccia']", "1234"])
            #expect(out.status == 0, "ActivateResult failed: \(out.stderr)")
            #expect(try d.memory("s165")["useCount"] as? Int == before + 1)

            #expect(await eventually { d.launches().count == 1 })
            let engram = URL(fileURLWithPath: D.engramBinary).resolvingSymlinksInPath().path
            #expect(d.launches().first == [engram, "show", "--data-dir", d.dataDir, "--peek", "--pause", "--", "s165"])
            // Started like a launcher starts programs: its own session, no signal blocked, SIGINT/SIGTERM/SIGHUP live.
            let launch = try #require(d.launchRecords().first)
            #expect(launch.blocked == 0, "blocked signals: \(String(launch.blocked, radix: 16))")
            for signal in [SIGINT, SIGTERM, SIGHUP] {
                #expect(launch.ignored & (1 << UInt64(signal - 1)) == 0, "signal \(signal) is ignored")
            }
            #expect(launch.sessionLeader)
            // GNOME's timestamp goes on for X11 startup notification; no xdg-activation token can be made from it.
            let startupID = try #require(launch.startupID, "no DESKTOP_STARTUP_ID")
            #expect(startupID.hasSuffix("_TIME1234") && startupID.hasPrefix("engram-"), "\(startupID)")
            #expect(!startupID.contains(" ") && startupID.allSatisfy(\.isASCII), "\(startupID)")
            #expect(launch.activationToken == nil, "a stale XDG_ACTIVATION_TOKEN reached the terminal")

            // KRunner gives no timestamp: no startup id at all rather than the daemon's stale one.
            #expect(try d.gdbus(D.runnerPath, D.runner, "Run", ["'engram://memory/s165'", "''"]).status == 0)
            #expect(await eventually { d.launches().count == 2 })
            let krunner = try #require(d.launchRecords().last)
            #expect(krunner.startupID == nil && krunner.activationToken == nil, "\(krunner)")
        }
    }

    @Test func launchSearchOpensTheTerminalWithTheTermsAsArguments() async throws {
        try await withDaemon(environment: Self.staleStartup) { d in
            let terms = ["sour dough", "$(touch /tmp/engram-pwned)", "it's", "-rf"]
            let out = try d.gdbus(D.providerPath, D.provider, "LaunchSearch", [D.gvariantStrings(terms), "0"])
            #expect(out.status == 0, "LaunchSearch failed: \(out.stderr)")
            #expect(await eventually { d.launches().count == 1 })
            let argv = try #require(d.launches().first)
            #expect(Array(argv.dropFirst()) == ["search", "--data-dir", d.dataDir, "--pause", "--"] + terms)
            #expect(!FileManager.default.fileExists(atPath: "/tmp/engram-pwned"))
            // Timestamp 0 means "unknown": no startup id.
            #expect(d.launchRecords().first?.startupID == nil)

            #expect(try d.gdbus(D.providerPath, D.provider, "LaunchSearch", ["['sourdough']", "5678"]).status == 0)
            #expect(await eventually { d.launches().count == 2 })
            let second = try #require(d.launchRecords().last)
            #expect(second.startupID?.hasSuffix("_TIME5678") == true, "\(String(describing: second.startupID))")
            #expect(second.activationToken == nil)
        }
    }

    @Test func theSleepContextShowsNothingAndTheCLIStillWorks() async throws {
        try await withDaemon { d in
            let awake = try d.initialResultSet(["sourdough"])
            #expect(!awake.isEmpty)
            let sleep = try d.engram(["open", "engram://context/sleep"])
            #expect(sleep.status == 0)
            let asleep = try d.initialResultSet(["sourdough"])
            #expect(asleep.isEmpty)
            let clear = try d.engram(["open", "engram://context"])
            #expect(clear.status == 0)
            let again = try d.initialResultSet(["sourdough"])
            #expect(again == awake)
        }
    }

    @Test func turningGnomeOffInConfigEmptiesOnlyTheShellsResults() async throws {
        try await withDaemon(config: "[privacy]\ngnome = false\n") { d in
            #expect(try d.initialResultSet(["sourdough"]).isEmpty)
            let matches = try d.gdbusValue(D.runnerPath, D.runner, "Match", ["'sourdough'"]).first as? [Any] ?? []
            #expect(!matches.isEmpty)
        }
    }
}
