import EngramTestSupport
import Foundation
@testable import EngramCore

func makeStore(_ dir: TempDir, clock: TestClock = TestClock()) throws -> Store {
    try Store(path: dir.path + "/data/engram.sqlite", clock: { clock.now })
}
