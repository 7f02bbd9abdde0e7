import Foundation
@testable import EngramCore

/// A temporary folder removed when the value is released.
final class TempDir {
    let path: String
    init() {
        path = NSTemporaryDirectory() + "engram-test-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A clock tests can move.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    init(_ start: Date = ISODate.parse("2026-11-22T10:00:00Z")!) { current = start }
    var now: Date { lock.lock(); defer { lock.unlock() }; return current }
    func advance(days: Double) { lock.lock(); current += days * 86_400; lock.unlock() }
    func set(_ d: Date) { lock.lock(); current = d; lock.unlock() }
}

func makeStore(_ dir: TempDir, clock: TestClock = TestClock()) throws -> Store {
    try Store(path: dir.path + "/data/engram.sqlite", clock: { clock.now })
}
