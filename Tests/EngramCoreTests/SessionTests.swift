import EngramTestSupport
import Foundation
import Testing
@testable import EngramCore

@Suite struct SessionTests {
    func seeded(_ clock: TestClock) throws -> (TempDir, Store) {
        let dir = TempDir()
        let store = try makeStore(dir, clock: clock)
        try store.upsertCurriculum(Curriculum(id: "rust", title: "Rust", created: clock.now),
                                   topics: (1...3).map { Topic(id: "rust-\($0)", curriculumID: "rust", position: $0, title: "T\($0)", done: $0 == 1, created: clock.now) })
        return (dir, store)
    }

    @Test func pauseResumeStopKeepElapsedTime() throws {
        let clock = TestClock()
        let (dir, store) = try seeded(clock)
        defer { withExtendedLifetime(dir) {} }
        let s = try store.startLearningSession(curriculumID: "rust")
        #expect(s.topicID == "rust-2", "starts at the first topic not done")
        #expect(s.progressDone == 1 && s.progressTotal == 3)
        clock.advance(days: 60.0 / 86_400)
        let p = try store.transition(.pause)
        #expect(p.state == .paused)
        clock.advance(days: 600.0 / 86_400)
        #expect(abs(p.elapsed(at: clock.now) - 60) < 0.01, "paused time does not count")
        #expect(try store.transition(.pause).state == .paused, "pausing twice is harmless")
        _ = try store.transition(.resume)
        clock.advance(days: 30.0 / 86_400)
        let stopped = try store.transition(.stop)
        #expect(stopped.state == .stopped)
        #expect(abs(stopped.elapsed(at: clock.now + 1000) - 90) < 0.01)
        #expect(try store.transition(.stop, sessionID: stopped.id) == stopped, "ending is idempotent")
        #expect(throws: EngramError.self) { try store.transition(.resume, sessionID: stopped.id) }
        #expect(try store.activeSession() == nil)
    }

    @Test func topicsAdvanceAndTheLastCompletesTheSession() throws {
        let clock = TestClock()
        let (dir, store) = try seeded(clock)
        defer { withExtendedLifetime(dir) {} }
        _ = try store.startLearningSession(curriculumID: "rust")
        #expect(throws: EngramError.self) { try store.startLearningSession(curriculumID: "rust") }
        let a = try store.completeCurrentTopic()
        #expect(a.topicID == "rust-3" && a.progressDone == 2 && a.state == .running)
        let b = try store.completeCurrentTopic()
        #expect(b.state == .completed && b.progressDone == 3)
        #expect(try store.topics(of: "rust").allSatisfy(\.done))
    }

    @Test func aSessionSurvivesReopeningTheStore() throws {
        let clock = TestClock()
        let (dir, store) = try seeded(clock)
        let s = try store.startLearningSession(curriculumID: "rust", topicID: "rust-3")
        _ = try store.transition(.pause)
        let reopened = try makeStore(dir, clock: clock)
        let back = try #require(try reopened.activeSession())
        #expect(back.id == s.id && back.state == .paused && back.topicID == "rust-3")
        #expect(try reopened.transition(.resume).state == .running)
    }

    @Test func commandsWithoutAnIDAddressTheLearningSessionNotACapture() throws {
        let clock = TestClock()
        let (dir, store) = try seeded(clock)
        defer { withExtendedLifetime(dir) {} }
        let learning = try store.startLearningSession(curriculumID: "rust")
        clock.advance(days: 1.0 / 86_400)
        let capture = try store.startCaptureSession(title: "Inbox")  // newer, hosted by this (running) process
        #expect(capture.host == ProcessIdentity.current && ProcessIdentity.isAlive(capture.host!))
        #expect(try store.activeSession()?.id == learning.id, "the learning session, though the capture is newer")
        #expect(try store.transition(.pause).id == learning.id)
        #expect(try store.session(id: capture.id)?.state == .running, "the capture goes on")
        #expect(try store.transition(.resume).id == learning.id)
        #expect(try store.transition(.stop).id == learning.id)
        #expect(throws: EngramError.self, "nothing to pause once the learning session ended") { try store.transition(.pause) }
        for action in DeepLink.SessionAction.allCases {
            #expect(throws: EngramError.self, "a running capture is not \(action)ed from outside") {
                try store.transition(action, sessionID: capture.id)
            }
        }
        #expect(throws: EngramError.self) { try store.completeCurrentTopic(sessionID: capture.id) }
        #expect(try store.session(id: capture.id)?.state == .running)
        #expect(try store.endOrphanedCaptures().isEmpty, "its process runs: not an orphan")
    }

    @Test func aCaptureWhoseProcessIsGoneIsEndedAsInterruptedKeepingItsProgress() throws {
        let clock = TestClock()
        let (dir, store) = try seeded(clock)
        defer { withExtendedLifetime(dir) {} }
        let gone = "0:1:\(UUID().uuidString)"  // pid 0 never runs
        let orphan = try store.startCaptureSession(title: "Crashed", host: gone)
        try store.recordCapture(sessionID: orphan.id)
        let other = try store.startCaptureSession(title: "Older build", host: "\(getpid()):1:another-boot")
        let alive = try store.startCaptureSession(title: "Alive")
        clock.advance(days: 30.0 / 86_400)
        let ended = try store.endOrphanedCaptures()
        #expect(Set(ended.map(\.id)) == [orphan.id, other.id], "a pid from another boot is not this one")
        let back = try #require(try store.session(id: orphan.id))
        #expect(back.state == .stopped && back.isInterrupted && back.progressDone == 1 && back.ended == clock.now)
        #expect(try store.session(id: alive.id)?.state == .running)
        #expect(try store.endOrphanedCaptures().isEmpty, "ended once")
        // Stopping an orphan by id is the same end; stopping again is harmless.
        let late = try store.startCaptureSession(title: "Late", host: gone)
        #expect(try store.transition(.stop, sessionID: late.id).isInterrupted)
        #expect(try store.transition(.stop, sessionID: late.id).state == .stopped)
    }

    @Test func oneLiveHostAtATime() throws {
        let clock = TestClock()
        let (dir, store) = try seeded(clock)
        defer { withExtendedLifetime(dir) {} }
        let s = try store.startLearningSession(curriculumID: "rust")
        let me = ProcessIdentity.current
        let gone = "0:1:x"
        #expect(try store.claimHost(sessionID: s.id, host: me))
        try store.recordNotification(sessionID: s.id, host: me, "7 :1.42")
        try store.recordNotification(sessionID: s.id, host: gone, "9 :1.43")  // not its host: ignored
        #expect(try store.session(id: s.id)?.notification == "7 :1.42")
        #expect(try !store.claimHost(sessionID: s.id, host: gone), "a live host keeps its session")
        try store.releaseHost(sessionID: s.id, host: me)
        #expect(try store.session(id: s.id)?.host == nil && store.session(id: s.id)?.notification == nil)
        #expect(try store.claimHost(sessionID: s.id, host: gone), "a free session goes to whoever claims it")
        #expect(try store.session(id: s.id)?.host == gone)
        #expect(try store.claimHost(sessionID: s.id, host: me), "a dead host's session is taken over")
        #expect(try store.session(id: s.id)?.host == me)
        _ = try store.transition(.stop)
        #expect(try !store.claimHost(sessionID: s.id, host: gone), "an ended session has no host to take")
    }
}
