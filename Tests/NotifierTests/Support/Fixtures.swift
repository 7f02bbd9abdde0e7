import EngramCore
import EngramTestSupport
import Foundation
@testable import Notifier

/// A store with one curriculum, “Rust”, of `topics` topics (the first one done).
func makeStore(_ dir: TempDir, topics: Int = 8, title: String = "Rust") throws -> Store {
    let store = try Store(path: dir.path + "/data/engram.sqlite")
    let now = Date()
    try store.upsertCurriculum(
        Curriculum(id: "rust", title: title, created: now),
        topics: (1...topics).map { Topic(id: "rust-\($0)", curriculumID: "rust", position: $0, title: "Topic \($0)", done: $0 == 1, created: now) })
    return store
}

/// Fast timings for tests: updates at most every 200 ms, the store read every 100 ms.
func fastOptions(staleAfter: Duration? = nil) -> LiveSession.Options {
    LiveSession.Options(pollInterval: .milliseconds(100),
                        activity: LiveActivity.Options(minimumInterval: .milliseconds(200), staleAfter: staleAfter),
                        learningDismissal: .default, captureDismissal: .after(.seconds(60)))
}

/// Collects notes a `LiveSession` prints for the person.
final class NoteLog: @unchecked Sendable {
    private let lock = NSLock()
    private var notes: [String] = []
    func add(_ note: String) { lock.withLock { notes.append(note) } }
    var all: [String] { lock.withLock { notes } }
}
