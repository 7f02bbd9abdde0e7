import EngramTestSupport
import Foundation
import GRDB
@testable import EngramCore

/// A small, seeded random number generator (SplitMix64), so a failing case can be replayed.
struct SeededRNG: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9e3779b97f4a7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58476d1ce4e5b9
        z = (z ^ (z >> 27)) &* 0x94d049bb133111eb
        return z ^ (z >> 31)
    }
}

/// One Engram device in a test: a data folder with its store and its own copy of the sync folder.
final class Device {
    let dir = TempDir()
    let clock: TestClock
    let store: Store
    let sync: SyncFolder
    var id: String { try! store.syncDevice()! }

    init(clock: TestClock = TestClock()) throws {
        self.clock = clock
        store = try Store(path: dir.path + "/data/engram.sqlite", clock: { [clock] in clock.now })
        sync = SyncFolder(store: store, root: dir.path + "/sync")
        try sync.enable()
    }

    /// This device's own log folder.
    var ownLog: String { sync.root + "/devices/" + id }

    /// Copies this device's log folder into `other`'s sync folder, as a file sync would (temporary file, rename).
    func ship(to other: Device) throws {
        let fm = FileManager.default
        let target = other.sync.root + "/devices/" + id
        try fm.createDirectory(atPath: target, withIntermediateDirectories: true)
        let names = try fm.contentsOfDirectory(atPath: ownLog)
        for name in names where SyncFiles.segmentNumber(name) != nil {
            let tmp = target + "/.syncthing." + name + ".tmp"
            try? fm.removeItem(atPath: tmp)
            try fm.copyItem(atPath: ownLog + "/" + name, toPath: tmp)
            _ = rename(tmp, target + "/" + name)
        }
        for name in try fm.contentsOfDirectory(atPath: target) where !names.contains(name) {
            try fm.removeItem(atPath: target + "/" + name)  // the device deleted it (compaction)
        }
    }

    /// Every byte of this device's own log.
    func ownLogText() throws -> String {
        var text = ""
        for seg in SyncFiles.segments(in: ownLog) {
            text += try String(contentsOfFile: ownLog + "/" + seg.name, encoding: .utf8)
        }
        return text
    }
}

/// Exchanges logs between devices until they hold the same operations: export, ship both ways, import.
func converge(_ devices: [Device], rounds: Int = 2) throws {
    for _ in 0..<rounds {
        for d in devices { try d.sync.export() }
        for a in devices { for b in devices where a !== b { try a.ship(to: b) } }
        for d in devices { try d.sync.syncNow() }
    }
}

/// Writes `text` to `path`, making its folder.
func writeFile(_ text: String, to path: String) throws {
    try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
}

/// The messages `sync status` shows, newest first, one a line.
func statusMessages(_ device: Device) throws -> String {
    try device.store.syncStatus(messages: 100).messages.map(\.text).joined(separator: "\n")
}
