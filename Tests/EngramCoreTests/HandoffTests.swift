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
