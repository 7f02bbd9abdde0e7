import DBus
import EngramTestSupport
import Foundation
import Testing

/// KRunner's calls (Plasma 5.27 makes them through QtDBus with these exact signatures).
@Suite struct KRunnerTests {
    typealias D = DaemonFixture

    @Test func matchesKeepXapianOrderWithStrictlyDecreasingRelevance() async throws {
        try await withDaemon { d in
            let reply = try d.call(D.runnerPath, D.runner, "Match", ["swift"])
            let matches = try #require(reply.first?.arrayValue)
            #expect(matches.count >= 5)
            let relevances = matches.compactMap { $0[4]?.doubleValue }
            #expect(relevances.count == matches.count)
            #expect(zip(relevances, relevances.dropFirst()).allSatisfy { $0 > $1 }, "not strictly decreasing: \(relevances)")
            #expect(relevances.allSatisfy { $0 > 0 && $0 <= 1 })

            // The same order Engram's own search gives (Xapian's), ids being the engram:// links.
            let ids = matches.compactMap { $0[0]?.stringValue }
            let search = try d.call(D.appPath, D.app, "Search", ["swift", .uint32(10)]).first?.arrayValue ?? []
            #expect(ids == search.compactMap { $0["url"]?.stringValue })

            for match in matches {
                let properties = try #require(match[5])
                #expect(["Memories", "Curricula", "Topics"].contains(properties["category"]?.stringValue ?? ""))
                #expect(properties["urls"]?.stringArrayValue == [match[0]?.stringValue ?? ""])
                #expect((properties["subtext"]?.stringValue ?? "").isEmpty == false)
                #expect(match[3]?.int32Value == 30 || match[3]?.int32Value == 100)
            }
            let categories = Set(matches.compactMap { $0[5]?["category"]?.stringValue })
            #expect(categories.contains("Curricula") && categories.contains("Memories"), "got \(categories)")

            // gdbus sees the same list.
            let text = try d.gdbusValue(D.runnerPath, D.runner, "Match", ["'swift'"]).first as? [[Any]] ?? []
            #expect(text.compactMap { $0.first as? String } == ids)
        }
    }

    @Test func configActionsAndTheMinimumLetterCount() async throws {
        try await withDaemon(config: "min_letters = 4\n") { d in
            let config = try #require(try d.call(D.runnerPath, D.runner, "Config").first)
            #expect(config["MinLetterCount"]?.int32Value == 4)
            let actions = try d.call(D.runnerPath, D.runner, "Actions").first?.arrayValue ?? []
            #expect(actions.compactMap { $0[0]?.stringValue } == ["copy", "pin", "unpin"])
            // No Actions in Config: KF5's RunnerManager would take them as an empty list and never ask Actions.
            #expect(config["Actions"] == nil)
            #expect(try d.call(D.runnerPath, D.runner, "Match", ["swi"]).first?.arrayValue?.isEmpty == true)
            #expect(try d.call(D.runnerPath, D.runner, "Match", ["swif"]).first?.arrayValue?.isEmpty == false)
        }
    }

    /// The files of the index (`index.d/…`) process `pid` has open.
    static func openIndexFiles(_ pid: Int32, _ d: D) -> [String] {
        let fds = "/proc/\(pid)/fd"
        return ((try? FileManager.default.contentsOfDirectory(atPath: fds)) ?? []).compactMap { fd in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: fds + "/" + fd)).flatMap { $0.hasPrefix(d.dataDir + "/index.d/") ? $0 : nil }
        }.sorted()
    }

    /// KRunner calls Teardown when its session ends: the daemon closes the index reader the matches kept open (the writer
    /// keeps its own) and drops the cached results, and the next session's Match opens it again.
    @Test func teardownClosesTheIndexReaderUntilTheNextMatch() async throws {
        try await withDaemon { d in
            let first = try d.call(D.runnerPath, D.runner, "Match", ["sourdough"]).first?.arrayValue ?? []
            #expect(!first.isEmpty)
            let pid = try #require(try d.daemonPID())
            // The start-up apply and sweep are done once Sync answers; what is open now is the writer's and the reader's.
            _ = try d.call(D.appPath, D.app, "Sync")
            let searching = Self.openIndexFiles(pid, d)

            #expect(try d.gdbus(D.runnerPath, D.runner, "Teardown").status == 0)
            let tornDown = Self.openIndexFiles(pid, d)
            #expect(tornDown.count < searching.count, "Teardown closed nothing: \(searching) then \(tornDown)")
            #expect(Set(tornDown).isSubset(of: Set(searching)))

            // The next session: same answers, from the index opened again.
            let again = try d.call(D.runnerPath, D.runner, "Match", ["sourdough"]).first?.arrayValue ?? []
            #expect(again.map { $0[0]?.stringValue } == first.map { $0[0]?.stringValue })
            #expect(Self.openIndexFiles(pid, d).count == searching.count)
            // Running a match of the old session still works: it is a link, looked up afresh.
            #expect(try d.gdbus(D.runnerPath, D.runner, "Run", ["'engram://memory/s165'", "'pin'"]).status == 0)
            #expect(try d.memory("s165")["pinned"] as? Bool == true)
        }
    }

    @Test func runOpensPinsAndUnpins() async throws {
        try await withDaemon { d in
            let id = "engram://memory/s165"
            let before = try #require(d.memory("s165")["useCount"] as? Int)
            _ = try d.call(D.runnerPath, D.runner, "Match", ["focaccia"])
            #expect(try d.gdbus(D.runnerPath, D.runner, "Run", ["'\(id)'", "''"]).status == 0)
            #expect(try d.memory("s165")["useCount"] as? Int == before + 1)
            #expect(await eventually { d.launches().count == 1 })

            #expect(try d.gdbus(D.runnerPath, D.runner, "Run", ["'\(id)'", "'pin'"]).status == 0)
            #expect(try d.memory("s165")["pinned"] as? Bool == true)
            let match = try d.call(D.runnerPath, D.runner, "Match", ["focaccia"]).first?.arrayValue?
                .first { $0[0]?.stringValue == id }
            #expect(match?[5]?["actions"]?.stringArrayValue == ["copy", "unpin"])

            #expect(try d.gdbus(D.runnerPath, D.runner, "Run", ["'\(id)'", "'unpin'"]).status == 0)
            #expect(try d.memory("s165")["pinned"] as? Bool == false)

            let unknown = try d.gdbus(D.runnerPath, D.runner, "Run", ["'\(id)'", "'forget'"])
            #expect(unknown.status != 0 && unknown.stderr.contains("InvalidArgs"))
            #expect(try d.engram(["show", "--peek", "s165"]).status == 0, "an unknown action must not touch the memory")
        }
    }

    /// KRunner from Frameworks 6.17 sends `SetActivationToken` just before `Run`: the token reaches what the Run opens
    /// (here the terminal, as `XDG_ACTIVATION_TOKEN`), once; a Run without one gets none.
    @Test func anActivationTokenGoesToWhatRunOpens() async throws {
        try await withDaemon { (d: DaemonFixture) async throws -> Void in
            let id = "engram://memory/s165"
            #expect(try d.gdbus(D.runnerPath, D.runner, "SetActivationToken", ["'kwin-token-42'"]).status == 0)
            #expect(try d.gdbus(D.runnerPath, D.runner, "Run", ["'\(id)'", "''"]).status == 0)
            #expect(await eventually { d.launchRecords().count == 1 })
            #expect(d.launchRecords().first?.activationToken == "kwin-token-42")
            #expect(d.launchRecords().first?.startupID == "kwin-token-42")
            #expect(try d.gdbus(D.runnerPath, D.runner, "Run", ["'\(id)'", "''"]).status == 0)
            #expect(await eventually { d.launchRecords().count == 2 })
            #expect(d.launchRecords().last?.activationToken == nil, "a token is used once")
        }
    }

    /// Copy goes through Klipper, as KDE's own runners do; python-dbusmock plays Klipper here.
    @Test func copyPutsTheWholeMemoryOnKlippersClipboard() async throws {
        try await withDaemon { d in
            let mock = try ChildProcess.spawn("/usr/bin/python3", ["-m", "dbusmock", "--session", "org.kde.klipper", "/klipper",
                                                                   "org.kde.klipper.klipper"], environment: d.environment)
            defer { mock.kill() }
            #expect(try await eventually { try d.client.nameOwner("org.kde.klipper") != nil })
            _ = try d.callPeer("org.kde.klipper", "/klipper", "org.freedesktop.DBus.Mock", "AddMethod",
                               ["org.kde.klipper.klipper", "setClipboardContents", "s", "", ""])

            #expect(try d.gdbus(D.runnerPath, D.runner, "Run", ["'engram://memory/s165'", "'copy'"]).status == 0)
            let calls = try d.callPeer("org.kde.klipper", "/klipper", "org.freedesktop.DBus.Mock", "GetCalls").first?.arrayValue ?? []
            let copied = calls.compactMap { call -> String? in
                call[1]?.stringValue == "setClipboardContents" ? call[2]?[0]?.stringValue : nil
            }
            #expect(copied == [try d.memory("s165")["content"] as? String ?? "?"])
        }
    }
}
