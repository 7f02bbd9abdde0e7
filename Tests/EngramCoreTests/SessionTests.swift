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
}
