import EngramTestSupport
import Foundation
import GRDB
import Testing
@testable import EngramCore

/// Handoff through the sync folder, two devices in one process: what each publishes, what the other offers, and
/// a session's move counting every second once.
@Suite struct HandoffTests {
    /// One device: its store, sync folder and handoff, publishing its session changes as a `Library` does.
    struct Device {
        let store: Store
        let folder: SyncFolder
        let handoff: Handoff

        init(_ dir: TempDir, _ name: String, root: String, clock: TestClock) throws {
            store = try Store(path: dir.path + "/\(name)/engram.sqlite", clock: { clock.now })
            folder = SyncFolder(store: store, root: root)
            handoff = Handoff(store: store, root: root, minutes: 15, deviceName: name)
            try folder.enable()
            store.observeSessionChanges { [handoff] s in try? handoff.publish(s) }
        }

        var id: String { get throws { try #require(try handoff.ownDevice()) } }
        func sync() throws { try folder.syncNow() }
    }

    /// Two devices sharing a folder, the curriculum made on the laptop and synced to the desktop.
    func pair(_ clock: TestClock, title: String = "Swift Concurrency") throws -> (TempDir, Device, Device) {
        let dir = TempDir()
        let root = dir.path + "/shared"
        let laptop = try Device(dir, "laptop", root: root, clock: clock)
        let desktop = try Device(dir, "desktop", root: root, clock: clock)
        try laptop.store.upsertCurriculum(Curriculum(id: "swift", title: title, created: clock.now),
                                          topics: [Topic(id: "swift-1", curriculumID: "swift", position: 1, title: "Sendable", created: clock.now)])
        try laptop.sync()
        try desktop.sync()
        return (dir, laptop, desktop)
    }

    @Test func aSessionMovesAndItsTimeIsCountedOnce() throws {
        let clock = TestClock()
        let (dir, laptop, desktop) = try pair(clock)
        defer { withExtendedLifetime(dir) {} }
        let t0 = clock.now
        let started = try laptop.store.startLearningSession(curriculumID: "swift")
        try laptop.sync()
        try desktop.sync()
        #expect(try laptop.handoff.offers().isEmpty, "a device never offers its own activity")

        clock.advance(seconds: 720.0)
        let offer = try #require(try desktop.handoff.offers().first)
        #expect(offer.kind == .session && offer.itemID == started.id)
        #expect(offer.text == "Swift Concurrency — Sendable, 12 min")
        #expect(offer.activity.deviceName == "laptop")

        // The person continues on the desktop; the laptop is running the session, so the desktop waits.
        guard case .waiting(let claim) = try desktop.handoff.claim(offer) else { Issue.record("the origin has not let go yet"); return }
        #expect(claim.claimed == t0 + 720)
        #expect(try desktop.handoff.offers().isEmpty, "an offer this device claimed is not offered again")

        // The laptop notices five seconds later: it pauses as of the claim, not as of now.
        clock.advance(seconds: 5.0)
        let handed = try laptop.handoff.answerClaims()
        #expect(handed.first?.state == .paused)
        #expect(handed.first?.accumulatedSeconds == 720, "the origin's stretch ends at the claim: \(handed.first?.accumulatedSeconds ?? -1)")
        #expect(try laptop.handoff.answerClaims().isEmpty, "a claim is answered once")

        try desktop.sync()
        guard case .resumed(let here) = try desktop.handoff.completeClaim() else { Issue.record("the desktop did not resume the session"); return }
        #expect(here.state == .running && here.resumed == t0 + 720, "resumed as of the claim: no gap, no overlap")
        #expect(try desktop.handoff.pendingClaim() == nil)

        clock.advance(seconds: 300.0)
        _ = try desktop.store.transition(.pause)
        try desktop.sync()
        try laptop.sync()
        let wall = clock.now.timeIntervalSince(t0)
        for device in [laptop, desktop] {
            let s = try #require(try device.store.session(id: started.id))
            #expect(s.state == .paused)
            #expect(abs(s.accumulatedSeconds - wall) < 0.01, "studied \(s.accumulatedSeconds) s in \(wall) s of wall time")
        }
        #expect(try laptop.handoff.offers().map(\.itemID) == [started.id], "now the laptop is offered the desktop's session")
    }

    @Test func anOfflineOriginNeverCountsTwice() throws {
        let clock = TestClock()
        let (dir, laptop, desktop) = try pair(clock)
        defer { withExtendedLifetime(dir) {} }
        let started = try laptop.store.startLearningSession(curriculumID: "swift")
        try laptop.sync()
        try desktop.sync()
        let offer = try #require(try desktop.handoff.offers().first)
        guard case .waiting = try desktop.handoff.claim(offer) else { Issue.record("expected to wait"); return }

        // The laptop stays offline past the window: the desktop gives up and leaves the session where it was.
        clock.advance(seconds: 16 * 60.0)
        guard case .dropped(let why) = try desktop.handoff.completeClaim() else { Issue.record("the claim was not dropped"); return }
        #expect(why.contains("did not hand the session over within 15 min"))
        #expect(try desktop.handoff.pendingClaim() == nil)
        #expect(try desktop.store.session(id: started.id)?.state == .running, "nothing changed here")
        // A late answer to a claim past the window pauses nothing.
        try desktop.handoff.claimFile(origin: laptop.id, session: started.id, at: clock.now - 20 * 60)
        #expect(try laptop.handoff.answerClaims().isEmpty)
        #expect(try laptop.store.session(id: started.id)?.state == .running)
    }

    @Test func activityFilesArePrivateAndTheLogReaderLeavesThemAlone() throws {
        let clock = TestClock()
        let (dir, laptop, desktop) = try pair(clock)
        defer { withExtendedLifetime(dir) {} }
        _ = try laptop.store.startLearningSession(curriculumID: "swift")
        let folder = dir.path + "/shared/devices/" + (try laptop.id)
        let path = folder + "/" + HandoffActivity.fileName
        var st = stat()
        #expect(stat(path, &st) == 0 && st.st_mode & 0o777 == 0o600, "activity.json is 0600")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).allSatisfy { !$0.hasSuffix(".tmp") }, "no temporary file left")
        let activity = try #require(HandoffActivity.read(path, device: try laptop.id))
        #expect(activity.session?.state == "running" && activity.session?.curriculum == "Swift Concurrency")
        #expect(HandoffActivity.read(path, device: try desktop.id) == nil, "a file naming another device than its folder is refused")

        try desktop.handoff.claimFile(origin: laptop.id, session: "x", at: clock.now)
        try laptop.sync()
        let report = try desktop.folder.importPeers()
        let laptopReport = try laptop.folder.importPeers()
        #expect(report.skipped == 0 && laptopReport.skipped == 0, "activity.json and claim.json are not read as logs")
        let files = try desktop.store.read { db in try String.fetchAll(db, sql: "SELECT file FROM syncPeerFile") }
            + laptop.store.read { db in try String.fetchAll(db, sql: "SELECT file FROM syncPeerFile") }
        #expect(!files.isEmpty && files.allSatisfy { $0.hasPrefix("ops-") }, "only log segments are read: \(files)")
        let notes = try desktop.store.read { db in try String.fetchAll(db, sql: "SELECT message FROM syncMessage") }
        #expect(!notes.contains { $0.contains(".json") }, "\(notes)")
    }

    @Test func staleEndedAndHostileActivities() throws {
        let clock = TestClock()
        let (dir, laptop, desktop) = try pair(clock, title: "<b>Bold</b> & \"quoted\"")
        defer { withExtendedLifetime(dir) {} }
        let s = try laptop.store.startLearningSession(curriculumID: "swift")
        try laptop.sync()
        try desktop.sync()
        #expect(try desktop.handoff.offers().first?.text == "<b>Bold</b> & \"quoted\" — Sendable, 0 min", "titles are kept literally")

        // A running session stays offered past the window (it is still running); a paused one does not.
        clock.advance(seconds: 20 * 60.0)
        #expect(try desktop.handoff.offers().first?.minutes == 20)
        _ = try laptop.store.transition(.pause)
        #expect(try desktop.handoff.offers().first?.activity.session?.state == "paused")
        #expect(try laptop.handoff.offers().isEmpty, "a device never offers its own activity, paused either")
        clock.advance(seconds: 16 * 60.0)
        #expect(try desktop.handoff.offers().isEmpty, "a paused activity older than the window is not offered")

        _ = try laptop.store.transition(.resume)
        #expect(try desktop.handoff.offers().count == 1)
        _ = try laptop.store.transition(.stop)
        #expect(try desktop.handoff.offers().isEmpty, "an ended session is not offered")
        #expect(try laptop.store.session(id: s.id)?.state == .stopped)
    }

    /// Another machine's file is input: absurd numbers, ids that are not ids, control characters, a huge file, a
    /// clock far ahead. None of it traps, reaches a notification raw, or keeps an offer up.
    @Test func hostileActivityFilesAreRefusedOrShownSafely() throws {
        let clock = TestClock()
        let (dir, laptop, desktop) = try pair(clock)
        defer { withExtendedLifetime(dir) {} }
        let started = try laptop.store.startLearningSession(curriculumID: "swift")
        try laptop.sync()
        try desktop.sync()
        let path = dir.path + "/shared/devices/\(try laptop.id)/" + HandoffActivity.fileName
        let stamp = { (d: Date) in ISO8601DateFormatter.string(from: d, timeZone: .gmt, formatOptions: HandoffJSON.options) }
        func activity(name: String = "laptop", id: String = started.id, elapsed: String = "60", written: Date? = nil) -> String {
            #"{"device":"\#(try! laptop.id)","deviceName":"\#(name)","written":"\#(stamp(written ?? clock.now))","#
                + #""session":{"id":"\#(id)","curriculum":"Swift","state":"running","elapsedSeconds":\#(elapsed)},"version":1}"#
        }
        func offers(_ text: String) throws -> [Handoff.Offer] {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return try desktop.handoff.offers()
        }
        #expect(try offers(activity()).first?.minutes == 1, "the well-formed file is offered")
        #expect(try offers(activity(elapsed: "1e300")).isEmpty, "a time no one studied is refused, not trapped on")
        #expect(try offers(activity(elapsed: "-5")).isEmpty)
        #expect(try offers(activity(id: "../../etc")).isEmpty, "a session id that is not an id")
        #expect(try offers(activity(written: clock.now + 86_400)).isEmpty, "a clock a day ahead keeps no offer up")
        #expect(try offers("{not json").isEmpty)
        #expect(try offers(activity() + String(repeating: " ", count: 70_000)).isEmpty, "a file over 64 KB is not read")
        let name = try #require(try offers(activity(name: #"lap\u0000top\u001b[31m <b>x</b>"#)).first).activity.deviceName
        #expect(name == "lap\u{FFFD}top\u{FFFD}[31m <b>x</b>", "control characters shown as U+FFFD, markup left to each sink: \(name)")
        #expect(!name.unicodeScalars.contains { $0.value < 0x20 })
    }

    /// Two devices claim the session at once: the origin hands it to one; the other drops its claim instead of
    /// resuming too. And when the person pauses on the origin itself after a claim (its daemon off), the device
    /// continuing starts from now, not from the claim: no stretch is counted on both.
    @Test func twoClaimsAndAPauseAtTheOriginNeverCountTwice() throws {
        let clock = TestClock()
        let (dir, laptop, desktop) = try pair(clock)
        defer { withExtendedLifetime(dir) {} }
        let tablet = try Device(dir, "tablet", root: dir.path + "/shared", clock: clock)
        let s = try laptop.store.startLearningSession(curriculumID: "swift")
        for d in [laptop, desktop, tablet] { try d.sync() }
        clock.advance(seconds: 60)
        guard case .waiting = try desktop.handoff.claim(try desktop.handoff.offer(nil)),
              case .waiting = try tablet.handoff.claim(try tablet.handoff.offer(nil)) else { Issue.record("expected both to wait"); return }
        #expect(try laptop.handoff.answerClaims().count == 1)
        try laptop.sync()
        for d in [desktop, tablet] { try d.sync() }
        let results = [try desktop.handoff.completeClaim(), try tablet.handoff.completeClaim()]
        let resumed = results.filter { if case .resumed = $0 { return true } else { return false } }
        let dropped = results.filter { if case .dropped(let why) = $0 { return why.contains("another device") } else { return false } }
        #expect(resumed.count == 1 && dropped.count == 1, "\(results)")

        // The pause at the origin came after the claim: the continuing device starts now.
        let (dir2, a, b) = try pair(clock)
        defer { withExtendedLifetime(dir2) {} }
        let t = try a.store.startLearningSession(curriculumID: "swift")
        try a.sync()
        try b.sync()
        clock.advance(seconds: 60)
        guard case .waiting = try b.handoff.claim(try b.handoff.offer(nil)) else { Issue.record("expected to wait"); return }
        let claimedAt = clock.now
        clock.advance(seconds: 120)
        _ = try a.store.transition(.pause)  // by hand: a's time runs to here, two minutes past the claim
        try a.sync()
        try b.sync()
        guard case .resumed(let here) = try b.handoff.completeClaim() else { Issue.record("b did not continue"); return }
        #expect(here.resumed == clock.now && here.resumed != claimedAt, "resumed at \(String(describing: here.resumed))")
        clock.advance(seconds: 30)
        _ = try b.store.transition(.stop)
        try b.sync()
        try a.sync()
        #expect(try a.store.session(id: t.id)?.accumulatedSeconds == 210, "180 s on a, 30 s on b, none twice")
    }

    @Test func aMemoryOpenedIsOfferedWithinTheWindow() throws {
        let clock = TestClock()
        let (dir, laptop, desktop) = try pair(clock)
        defer { withExtendedLifetime(dir) {} }
        let m = try laptop.store.remember(MemoryDraft(content: "Actors serialize access to their state", type: .note, tags: [])).memory
        try laptop.handoff.publish(memory: m)
        #expect(try desktop.handoff.offers().isEmpty, "not offered before the memory itself arrives")
        try laptop.sync()
        try desktop.sync()
        let offer = try #require(try desktop.handoff.offers().first)
        #expect(offer.kind == .memory && offer.itemID == m.id && offer.text == m.title)
        #expect(try desktop.handoff.offer("LAPTOP") == offer, "a device is named by its name in any case")
        #expect(throws: EngramError.self) { try desktop.handoff.claim(offer) }
        // Continued on the desktop: the laptop, which just had it open, is not offered it back.
        try desktop.handoff.publish(memory: m)
        try desktop.sync()
        try laptop.sync()
        let back = try laptop.handoff.offers()
        #expect(back.isEmpty, "offered back: \(back)")
        clock.advance(seconds: 16 * 60.0)
        #expect(try desktop.handoff.offers().isEmpty)
    }

    /// Forgetting a memory erases it from the activity that published it, on the device that opened it and when
    /// the forget comes from the other device.
    @Test func aForgottenMemoryLeavesNoTitleInTheActivityFile() throws {
        let clock = TestClock()
        let (dir, laptop, desktop) = try pair(clock)
        defer { withExtendedLifetime(dir) {} }
        let activity = { (d: Device) throws -> String in
            try String(contentsOfFile: dir.path + "/shared/devices/\(try d.id)/" + HandoffActivity.fileName, encoding: .utf8)
        }
        let here = try laptop.store.remember(MemoryDraft(content: "The vault code is 4512, behind the clock", type: .note, tags: [])).memory
        try laptop.handoff.publish(memory: here)
        #expect(try activity(laptop).contains("vault code"))
        _ = try laptop.store.forget(id: here.id)
        try laptop.sync()
        let laptopText = try activity(laptop)
        #expect(!laptopText.contains("vault code"), "\(laptopText)")

        let there = try laptop.store.remember(MemoryDraft(content: "Aunt Mae's pin is 0937", type: .note, tags: [])).memory
        try laptop.sync()
        try desktop.sync()
        try desktop.handoff.publish(memory: try #require(try desktop.store.memory(id: there.id)))
        #expect(try activity(desktop).contains("Aunt Mae"))
        _ = try laptop.store.forget(id: there.id)
        try laptop.sync()
        try desktop.sync()
        let desktopText = try activity(desktop)
        #expect(!desktopText.contains("Aunt Mae"), "the forget came from the laptop: \(desktopText)")
    }

    @Test func configuredWindowAndLink() throws {
        #expect(try EngramConfig.parse("[sync]\nhandoff_minutes = 5\n").handoffMinutes == 5)
        #expect(try EngramConfig.parse("").handoffMinutes == 15)
        #expect(throws: EngramError.self) { try EngramConfig.parse("[sync]\nhandoff_minutes = -1\n") }
        #expect(try DeepLink.parse("engram://handoff/continue?device=laptop") == .handoff(device: "laptop"))
        #expect(try DeepLink.parse("engram://handoff/continue") == .handoff(device: nil))
        #expect(DeepLink.handoff(device: "ab12").url == "engram://handoff/continue?device=ab12")
        #expect(throws: EngramError.self) { try DeepLink.parse("engram://handoff/start") }
        #expect(throws: EngramError.self) { try DeepLink.parse("engram://handoff/continue?device=a%20b") }
    }
}

extension Handoff {
    /// Writes this device's claim file directly (tests).
    func claimFile(origin: String, session: String, at date: Date) throws {
        let me = try #require(try ownDevice())
        let claim = HandoffClaim(device: me, origin: origin, session: session, claimed: date)
        try EngramPaths.ensurePrivateDirectory(devicesDirectory + "/" + me)
        try DurableFile.replace(file(me, HandoffClaim.fileName), with: try HandoffJSON.encoder.encode(claim))
    }
}
