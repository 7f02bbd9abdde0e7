import DBus
import EngramCore
import Foundation
import Testing

/// `org.engram.Engram1`, as automation and voice front ends use it.
@Suite struct EngramInterfaceTests {
    typealias D = DaemonFixture

    func property(_ d: DaemonFixture, _ name: String) throws -> DBusValue? {
        try d.call(D.appPath, "org.freedesktop.DBus.Properties", "Get", [.string(D.app), .string(name)]).first?.variantValue
    }

    /// The daemon's PropertiesChanged signals, collected from now on.
    func watchProperties(_ d: DaemonFixture) throws -> (Collector<DBusSignalEvent>, DBusSignalSubscription) {
        let seen = Collector<DBusSignalEvent>()
        let subscription = try d.client.addMatch(DBusMatchRule(sender: D.busName, path: "/org/engram/Engram",
                                                               interface: "org.freedesktop.DBus.Properties",
                                                               member: "PropertiesChanged")) { seen.append($0) }
        return (seen, subscription)
    }

    @Test func rememberWithTheSameRequestIDStoresOnce() async throws {
        try await withDaemon { d in
            let count = try #require(try property(d, "MemoryCount")?.uint32Value)
            let args = ["'Ask the bakery about rye flour'", "'task'", "['bread', 'Shopping']", "''", "'voice-7f3a'"]
            let first = try d.gdbusValue(D.appPath, D.app, "Remember", args)
            let again = try d.gdbusValue(D.appPath, D.app, "Remember", args)
            let id = try #require(first.first as? String)
            #expect(again.first as? String == id)
            #expect(first.last as? String == "Remembered “Ask the bakery about rye flour”.")
            #expect(again.last as? String == "Already remembered “Ask the bakery about rye flour”.")
            let stats = try JSONSerialization.jsonObject(with: Data(try d.engram(["stats", "--json"]).stdout.utf8)) as? [String: Any]
            #expect(stats?["total"] as? Int == Int(count) + 1)
            let stored = try d.memory(id)
            #expect(stored["type"] as? String == "task" && stored["tags"] as? [String] == ["bread", "shopping"])
            // The reply came after indexing: it is searchable at once.
            #expect(try d.initialResultSet(["rye"]).contains("engram://memory/\(id)"))
        }
    }

    @Test func badRememberCallsSayWhatIsWrong() async throws {
        try await withDaemon { d in
            let badType = try d.gdbus(D.appPath, D.app, "Remember", ["'x'", "'poem'", "@as []", "''", "''"])
            #expect(badType.status != 0 && badType.stderr.contains("org.engram.Engram.Error.InvalidInput"))
            #expect(badType.stderr.contains("unknown type 'poem'"))
            let empty = try d.gdbus(D.appPath, D.app, "Remember", ["'   '", "''", "@as []", "''", "''"])
            #expect(empty.status != 0 && empty.stderr.contains("nothing to remember"))
        }
    }

    @Test func propertiesChangedFollowsACLICapture() async throws {
        try await withDaemon { d in
            let count = try #require(try property(d, "MemoryCount")?.uint32Value)
            let (seen, subscription) = try watchProperties(d)
            defer { subscription.cancel() }

            let out = try d.engram(["remember", "--type", "idea", "Signals for widgets"])
            #expect(out.status == 0, "\(out.stderr)")
            let announced = { () -> [String: DBusValue] in
                seen.all.filter { $0.arguments.first?.stringValue == D.app }
                    .reduce(into: [:]) { all, event in all.merge(event.arguments[1].dictionaryValue ?? [:]) { _, b in b } }
            }
            #expect(await eventually { announced()["MemoryCount"]?.uint32Value == count + 1 })
            #expect(announced()["TodayCount"] != nil)
            #expect(await eventually { announced()["IndexedChange"] != nil })
            #expect(try property(d, "MemoryCount")?.uint32Value == count + 1)
            #expect(try property(d, "PendingChanges")?.uint32Value == 0)
        }
    }

    /// A burst of captures by another program (a script, an import) is announced in a few signals, at most one
    /// a tenth of a second, and the last one carries the final counts: a widget ends right and is not woken (nor the
    /// store read) once per capture.
    @Test func aBurstOfCapturesIsAnnouncedCoalescedAndEndsWithTheFinalCount() async throws {
        try await withDaemon { d in
            let count = try #require(try property(d, "MemoryCount")?.uint32Value)
            let (seen, subscription) = try watchProperties(d)
            defer { subscription.cancel() }
            let counts = { () -> [UInt32] in
                seen.all.compactMap { $0.arguments.count > 1 ? $0.arguments[1].dictionaryValue?["MemoryCount"]?.uint32Value : nil }
            }
            let store = try Store(path: d.dataDir + "/engram.sqlite")
            let start = ContinuousClock.now
            for n in 0..<40 { _ = try store.remember(MemoryDraft(content: "Burst capture number \(n)", source: "test")) }
            let written = ContinuousClock.now - start
            #expect(await eventually { counts().last == count + 40 }, "announced: \(counts())")
            let elapsed = ContinuousClock.now - start
            // One read per event was about one signal per capture (40 here); now one per 100 ms at most, plus the last.
            let allowed = Int(elapsed / .milliseconds(100)) + 2
            #expect(counts().count <= allowed && counts().count < 40,
                    "\(counts().count) signals for 40 captures written in \(written), counts settled after \(elapsed)")
            #expect(try property(d, "MemoryCount")?.uint32Value == count + 40)
        }
    }

    @Test func sessionAndContextShowInProperties() async throws {
        try await withDaemon { d in
            #expect(try property(d, "ActiveSession")?.stringValue == "")
            #expect(try d.engram(["session", "start", "--curriculum", "swift-concurrency"]).status == 0)
            #expect(try d.engram(["open", "engram://context/work"]).status == 0)
            #expect(try await eventually { try property(d, "ActiveContext")?.stringValue == "work" })
            #expect(try await eventually { try !(property(d, "ActiveSession")?.stringValue ?? "").isEmpty })
            let json = try #require(try property(d, "ActiveSession")?.stringValue)
            let session = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
            #expect(session?["state"] as? String == "running")
            #expect(session?["curriculum"] as? String == "swift-concurrency")
            #expect(try d.gdbusValue(D.appPath, D.app, "Open", ["'engram://session/pause'"]).first as? String ?? "" != "")
            #expect(try await eventually { try (property(d, "ActiveSession")?.stringValue ?? "").contains("\"paused\"") })
        }
    }

    @Test func searchStatsAndOpen() async throws {
        try await withDaemon { d in
            let results = try d.call(D.appPath, D.app, "Search", ["focaccia", .uint32(5)]).first?.arrayValue ?? []
            let ids = results.compactMap { result -> String? in result["id"]?.stringValue }
            #expect(ids.contains("s165"))
            #expect(results.first?["url"]?.stringValue?.hasPrefix("engram://") == true)
            let stats = try #require(try d.call(D.appPath, D.app, "Stats").first)
            #expect(stats["total"]?.uint32Value == 300)
            #expect(stats["sentence"]?.stringValue?.hasPrefix("You have 300 memories") == true)
            let before = try #require(d.memory("s165")["useCount"] as? Int)
            let sentence = try d.gdbusValue(D.appPath, D.app, "Open", ["'engram://memory/s165'"]).first as? String
            #expect(sentence?.hasPrefix("Opened “Use sourdough discard in the focaccia") == true, "\(String(describing: sentence))")
            #expect(try d.memory("s165")["useCount"] as? Int == before + 1)
            let bad = try d.gdbus(D.appPath, D.app, "Open", ["'engram://memory/../../etc'"])
            #expect(bad.status != 0 && bad.stderr.contains("org.engram.Engram.Error.InvalidInput"))
        }
    }
}
