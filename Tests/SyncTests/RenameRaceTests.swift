import EngramTestSupport
import Foundation
import Testing
@testable import EngramCore

/// Syncthing delivers a peer's grown log as a new file: it writes `.syncthing.<name>.tmp`, removes the old file,
/// and renames the new one into its place (seen in `make test-sync`: a listing held only the temporary file). A pass
/// in that moment must keep the position read so far, or the whole log is applied again on the next pass
/// (harmless, but seconds of work for a large log, on every capture the peer makes).
@Suite struct RenameRaceTests {
    @Test func aLogRenamedOverWhileReadingIsNotReadAgainFromTheStart() throws {
        let peer = try Device(), me = try Device()
        for i in 0..<300 { _ = try peer.store.remember(MemoryDraft(content: "note \(i) from the peer")) }
        try peer.sync.export()
        try peer.ship(to: me)
        let first = try me.sync.importPeers()
        #expect(first.applied > 0)

        // A file sync replacing the log with new versions (the same bytes) while this device keeps reading it.
        let target = me.sync.root + "/devices/" + peer.id
        let name = try #require(SyncFiles.segments(in: target).first?.name)
        let stop = Atomic(false)
        let source = peer.ownLog + "/" + name
        let renamer = Thread {
            var n = 0
            while !stop.load() {
                let tmp = target + "/.syncthing.\(name).\(n % 2).tmp"
                try? FileManager.default.removeItem(atPath: tmp)
                try? FileManager.default.copyItem(atPath: source, toPath: tmp)
                _ = unlink(target + "/" + name)
                _ = rename(tmp, target + "/" + name)
                n += 1
            }
        }
        renamer.start()
        defer { stop.store(true) }
        var again = 0
        for _ in 0..<400 { again += try me.sync.importPeers().applied }
        stop.store(true)
        #expect(again == 0, "\(again) operations applied again: a pass lost its place in the peer's log")
    }
}

/// A flag two threads share.
final class Atomic: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Bool
    init(_ value: Bool) { self.value = value }
    func load() -> Bool { lock.withLock { value } }
    func store(_ new: Bool) { lock.withLock { value = new } }
}
