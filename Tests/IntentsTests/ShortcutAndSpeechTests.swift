import EngramCore
import EngramTestSupport
import Foundation
import EngramApp
import Indexer
import Intents
import Testing

@Suite(.serialized) struct ShortcutAndSpeechTests {
    static let sampleConfig = try! String(contentsOfFile: repositoryRoot + "/Samples/config.toml", encoding: .utf8)

    @Test func shippedExamplesParseAndRunByName() throws {
        let lib = try TestLibrary(config: Self.sampleConfig)
        let config = try ShortcutConfig(lib.library.config)
        #expect(config.shortcuts.map(\.name) == ["Quick Study", "Daily Review", "Export Progress"])
        let results = try lib.runner().run(try config.shortcut(named: "quick study"))
        #expect(results.map(\.intent) == [.startSession, .summarizeTopic])
        #expect(results[0].sentence == "Started Swift Concurrency: Sendable.")
        #expect(try lib.library.store.activeSession()?.curriculumID == "swift-concurrency")
        let export = try lib.runner().run(try config.shortcut(named: "Export Progress"))
        let path = try #require(export.first?.path)
        let md = try String(contentsOfFile: path, encoding: .utf8)
        #expect(md.contains("## Swift Concurrency") && md.contains("- [x] async/await"))
    }

    @Test func aShortcutSaysWhichStepFailed() throws {
        let lib = try TestLibrary(samples: false)
        let s = Shortcut(name: "Broken", steps: ["memory stats", "fly to the moon"], summary: nil, key: nil)
        do {
            _ = try lib.runner().run(s)
            Issue.record("should fail")
        } catch {
            #expect("\(error)".contains("stopped at step 2 (“fly to the moon”)"))
        }
        #expect(throws: EngramError.self) { try ShortcutConfig().shortcut(named: "nope") }
    }

    @Test func keybindingsForEachDesktop() throws {
        let s = Shortcut(name: "Quick Study", steps: ["daily review"], summary: nil, key: "Super+Shift+S")
        let sway = KeyBinding(shortcut: s, desktop: .sway, executable: "/usr/bin/engram").snippet()
        #expect(sway.contains("bindsym Mod4+Shift+s exec '/usr/bin/engram' shortcut run 'Quick Study'"))
        let talk = KeyBinding.pushToTalk(desktop: .sway, executable: "/usr/bin/engram", key: nil).snippet()
        #expect(talk.contains("bindsym Mod4+Shift+l exec '/usr/bin/engram' listen"))
        let talkKDE = KeyBinding.pushToTalk(desktop: .kde, executable: "/usr/bin/engram", key: "Meta+F9").snippet()
        #expect(talkKDE.contains("Exec=/usr/bin/engram listen") && talkKDE.contains("_launch=Meta+F9,none,Engram: Push to talk"))
        let gnome = KeyBinding(shortcut: s, desktop: .gnome, executable: "engram").snippet()
        #expect(gnome.contains("binding '<Super><Shift>s'") && gnome.contains("engram-quick-study"))
        let kde = KeyBinding(shortcut: s, desktop: .kde, executable: "engram").snippet()
        #expect(kde.contains("_launch=Meta+Shift+S,none,Engram: Quick Study"))
        let dir = NSTemporaryDirectory() + "engram-home-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let done = try KeyBinding(shortcut: s, desktop: .i3, executable: "engram").install(home: dir)
        #expect(done.first == "wrote \(dir)/.config/i3/config.d/engram-quick-study.conf")
        #expect(try String(contentsOfFile: "\(dir)/.config/i3/config.d/engram-quick-study.conf", encoding: .utf8).contains("bindsym"))
    }

    @Test func analyticsCountStudyTimePerCurriculumAndStreaks() throws {
        let lib = try TestLibrary()
        let store = lib.library.store
        lib.clock.advance(-3 * 86_400)
        for _ in 0..<3 {
            _ = try lib.ask("start studying spanish")
            lib.clock.advance(1800)
            _ = try lib.ask("stop studying")
            lib.clock.advance(86_400 - 1800)
        }
        _ = try lib.ask("start studying swift concurrency")
        lib.clock.advance(600)
        _ = try lib.ask("pause studying")
        let a = try LearningAnalytics.compute(store: store, range: .week, calendar: utc)
        #expect(a.totalMinutes == 100)
        #expect(a.sessionCount == 4)
        #expect(a.streakDays == 4)
        #expect(a.curricula.first { $0.id == "spanish-b1" }?.minutes == 90)
        #expect(a.curricula.first { $0.id == "swift-concurrency" }?.minutes == 10)
        #expect(a.days.last?.minutes == 10)
        #expect(a.days.suffix(4).map(\.minutes) == [30, 30, 30, 10])
        #expect(a.table().contains("Spanish to B1                       1:30          3  2/10 (20%)"))
        let svg = a.svg()
        #expect(svg.hasPrefix("<svg") && svg.contains("Spanish to B1") && svg.contains("streak 4 days"))
        let spoken = try lib.ask("how much did I study this week").sentence
        #expect(spoken == "You studied 100 minutes this week over 4 days; streak 4 days.")
    }

    @Test func queryOffersFollowUpsTheNotifierCanTurnIntoActions() throws {
        let lib = try TestLibrary()
        let r = try lib.ask("what do I know about sourdough")
        #expect(r.sentence.hasPrefix("Found ") && r.sentence.hasSuffix("Summarize them, or show all?"))
        #expect(r.followUps.map(\.id) == ["summarize", "show-all"])
        #expect(r.followUps[0].intent == .summarizeTopic && r.followUps[0].arguments["topic"] == "sourdough")
        let followed = try lib.runner().run(IntentInvocation(r.followUps[0].intent, r.followUps[0].arguments))
        #expect(followed.sentence.hasPrefix("Summary of sourdough"))
        #expect(try lib.ask("what do I know about zzzqqq").followUps.isEmpty)
    }
}
