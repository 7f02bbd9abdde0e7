import Foundation
import GRDB
import Logging

/// The result of one import pass over the peers' logs.
public struct SyncImportReport: Sendable, Equatable {
    /// Operations applied (duplicates included: applying again changes nothing).
    public var applied = 0
    /// Lines kept for later: a newer Engram's, or dated more than a day ahead (held until then).
    public var parked = 0
    /// Lines skipped as corrupt or misplaced.
    public var skipped = 0
    /// Forget operations among those applied.
    public var forgotten = 0
    /// Peer devices whose logs were read.
    public var peers: Set<String> = []
}

/// A sync folder shared by the person's devices: this device appends its operations to its own log there and
/// reads the others'.
///
/// The exporter appends whole lines and fsyncs, so a reader (here or on a peer, after Syncthing copies the file)
/// sees at worst an incomplete last line, which it leaves for the next pass. Nothing here writes another
/// device's folder; a forget rewrites this device's own segments without the forgotten item (`compact`).
public struct SyncFolder: Sendable {
    /// The store synced.
    public let store: Store
    /// The folder shared between devices (`[sync] folder`).
    public let root: String
    /// Called at points where a crash must lose nothing (tests kill the process there):
    /// `sync-export-appended`, `sync-compact-written`, `sync-import-chunk`.
    public var crashPoint: (@Sendable (String) throws -> Void)?

    static let logger = Logger(label: "org.engram.sync")

    /// A sync folder for `store` at `root`.
    public init(store: Store, root: String) {
        self.store = store
        self.root = root
    }

    var devicesDirectory: String { root + "/devices" }

    /// Turns sync on for the store (once; seeding operations for what it holds) and returns this device's id.
    @discardableResult
    public func enable() throws -> String {
        let now = store.clock()
        return try store.write("turn sync on") { db in try SyncLog.enable(db, at: now) }
    }

    /// Export, import, and export again (so a forget that arrived is compacted out of this device's log).
    @discardableResult
    public func syncNow() throws -> (exported: Int, imported: SyncImportReport) {
        try enable()
        var exported = try export()
        let report = try importPeers()
        exported += try export()
        return (exported, report)
    }

    /// Appends this device's pending operations to its log (compacting it first if something was forgotten);
    /// returns how many were written.
    @discardableResult
    public func export() throws -> Int {
        try store.write("write this device's sync log") { db in
            guard let device = try SyncLog.device(db) else { return 0 }
            let dir = devicesDirectory + "/" + device
            try EngramPaths.ensurePrivateDirectory(devicesDirectory)
            try EngramPaths.ensurePrivateDirectory(dir)
            if try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [SyncLog.compactKey]) == "1" {
                try Handoff.dropForgottenMemory(db, activityIn: dir, device: device)
                if try compact(db, dir, device: device) {
                    try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [SyncLog.compactKey])
                }
            }
            let rows = try Row.fetchAll(db, sql: "SELECT seq, line FROM syncPending ORDER BY seq")
            guard let last = rows.last?["seq"] as Int64? else { return 0 }
            var data = Data()
            for row in rows {
                data.append(contentsOf: (row["line"] as String).utf8)
                data.append(0x0A)
            }
            var n = SyncFiles.segments(in: dir).last?.n ?? 1
            if (SyncFiles.size(dir + "/" + SyncFiles.segmentName(n)) ?? 0) >= SyncFiles.segmentLimit { n += 1 }
            let segment = dir + "/" + SyncFiles.segmentName(n)
            try SyncFiles.dropIncompleteTail(segment)
            try SyncFiles.append(data, to: segment)
            try crashPoint?("sync-export-appended")
            // A crash before this commit writes the lines again next time: applying them twice changes nothing.
            try db.execute(sql: "DELETE FROM syncPending WHERE seq <= ?", arguments: [last])
            return rows.count
        }
    }

    /// Rewrites this device's segments as one new segment without the operations on forgotten items (their
    /// tombstones stay), then removes the old ones. Readers see a new file and read it from the start.
    ///
    /// Only this device's own lines are kept (a line of another device has no place in its folder). A segment
    /// that cannot be read is left in place, with a message, and never removed: returns false then, so the next
    /// export tries again.
    func compact(_ db: Database, _ dir: String, device: String) throws -> Bool {
        let segments = SyncFiles.segments(in: dir)
        guard let top = segments.last?.n else { return true }
        var kept = Data()
        var dropped = 0
        var unreadable: Set<String> = []
        var seen = Set<Data>()  // a line written twice (an export or compaction a crash interrupted) is kept once
        for seg in segments {
            guard let data = SyncFiles.read(dir + "/" + seg.name, from: 0) else {
                unreadable.insert(seg.name)
                try SyncLog.note(db, nil, "devices/\(device)/\(seg.name) (this device's log) could not be read, so it was left in place and not compacted; check its permissions, the next sync tries again", at: store.clock())
                continue
            }
            for line in data.split(separator: 0x0A, omittingEmptySubsequences: true) {
                guard case .operation(let op) = SyncOperation.parse(Substring(decoding: line, as: UTF8.self)), op.dev == device else { dropped += 1; continue }
                if op.op != .forget,
                   try SyncMerge.isBuried(db, op.e, op.item) || (op.op == .link && SyncMerge.isBuried(db, .memory, op.other ?? "")) {
                    dropped += 1
                    continue
                }
                guard seen.insert(Data(line)).inserted else { dropped += 1; continue }
                kept.append(line)
                kept.append(0x0A)
            }
        }
        guard dropped > 0 else { return unreadable.isEmpty }
        try DurableFile.replace(dir + "/" + SyncFiles.segmentName(top + 1), with: kept)
        try crashPoint?("sync-compact-written")
        for seg in segments where !unreadable.contains(seg.name) { unlink(dir + "/" + seg.name) }
        DurableFile.syncDirectory(dir)
        return unreadable.isEmpty
    }

    /// Reads every other device's log from where the last pass stopped and applies what is new.
    @discardableResult
    public func importPeers() throws -> SyncImportReport {
        var report = SyncImportReport()
        let me = try enable()
        // Its forgets count in `report.forgotten`; it may also drop kept lines holding a forgotten item's text:
        // the checkpoint below covers both.
        let erased = try retryParked(&report)
        let fm = FileManager.default
        let names = ((try? fm.contentsOfDirectory(atPath: devicesDirectory)) ?? []).sorted()
        for name in names where name != me && !name.hasPrefix(".") {
            let dir = devicesDirectory + "/" + name
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else { continue }
            guard DeviceID.isValid(name) else {
                try note(nil, "devices/\(name) is not an Engram device's folder (its name is not a device id); ignored")
                continue
            }
            report.peers.insert(name)
            // Segments in their number's order (ops-9 before ops-10), other names after them.
            let files = ((try? fm.contentsOfDirectory(atPath: dir)) ?? []).sorted {
                (SyncFiles.segmentNumber($0) ?? Int.max, $0) < (SyncFiles.segmentNumber($1) ?? Int.max, $1)
            }
            for file in files {
                if file.contains(".sync-conflict-") {
                    try note(name, "devices/\(name)/\(file) is a conflict copy, ignored: only device \(name) writes its folder, so two devices may share its id (a copied data folder?)")
                    continue
                }
                guard !SyncFiles.isForeign(file), SyncFiles.segmentNumber(file) != nil else { continue }
                // A device with `keptLimit` lines waiting: the rest of its log waits too (in order, nothing lost).
                guard try importFile(device: name, dir: dir, file: file, into: &report) else { break }
            }
            let present = Set(files)
            let newest = files.compactMap(SyncFiles.segmentNumber).max() ?? 0
            try store.write("forget read positions") { db in
                // A segment is gone for good once a newer one of the device is there (it compacted its log). A
                // missing newest segment is kept: Syncthing removes a file before it renames the new version into
                // its place, and forgetting the position read would apply the whole log again.
                for gone in try String.fetchAll(db, sql: "SELECT file FROM syncPeerFile WHERE device = ?", arguments: [name])
                where !present.contains(gone) && (SyncFiles.segmentNumber(gone) ?? 0) < newest && !fm.fileExists(atPath: dir + "/" + gone) {
                    try db.execute(sql: "DELETE FROM syncPeerFile WHERE device = ? AND file = ?", arguments: [name, gone])
                }
            }
        }
        if report.forgotten > 0 || erased {
            // As a local forget does: the zeroed pages (secure_delete) into the file, the WAL's old copies emptied.
            store.eraseWAL()
        }
        let known = try store.read { db in try String.fetchAll(db, sql: "SELECT device FROM syncPeer") }
        for peer in known where !names.contains(peer) {
            try note(peer, "device \(peer)'s folder is gone from the sync folder; what it sent is kept here")
        }
        return report
    }

    /// Whether `name` is a device's operation log segment (`ops-N.jsonl`), not a handoff file, a conflict copy or
    /// Syncthing's temporary file.
    public static func isLog(_ name: String) -> Bool { SyncFiles.segmentNumber(name) != nil && !SyncFiles.isForeign(name) }

    /// Lines read per transaction.
    static let chunkLines = 2000
    /// The most bytes of a peer's file read at once, and so the longest line read: an operation carrying the
    /// largest text (`Store.maxContentBytes`, every byte escaped in JSON) fits. A longer line is skipped.
    static let defaultReadLimit = 32 * 1024 * 1024
    /// `defaultReadLimit`, smaller in tests.
    var readLimit = SyncFolder.defaultReadLimit
    /// The most lines kept for later (a newer Engram's, or dated ahead) per device; past it the device's log is read
    /// no further until they drain, so a peer cannot fill this store with lines it cannot apply, and nothing is lost.
    static let defaultKeptLimit = 10_000
    /// `defaultKeptLimit`, smaller in tests.
    var keptLimit = SyncFolder.defaultKeptLimit

    /// Reads one of a peer's files from where the last pass stopped; false when reading stopped at `keptLimit`.
    @discardableResult
    func importFile(device: String, dir: String, file: String, into report: inout SyncImportReport) throws -> Bool {
        let path = dir + "/" + file
        var offset = try store.read { db in
            try Int.fetchOne(db, sql: "SELECT offset FROM syncPeerFile WHERE device = ? AND file = ?", arguments: [device, file])
        } ?? 0
        guard let size = SyncFiles.size(path) else { return true }
        if size < offset { offset = 0 }  // rewritten (its device compacted it): read again, applying twice is harmless
        // At most `readLimit` bytes at a time, so a huge file (or one endless line) never fills memory.
        while let size = SyncFiles.size(path), size > offset,
              let data = SyncFiles.read(path, from: offset, limit: readLimit) {
            guard let lastNewline = data.lastIndex(of: 0x0A) else {
                // Only complete lines: a line still being written (or copied) is left for the next pass...
                guard data.count >= readLimit, let end = SyncFiles.newline(in: path, from: offset + data.count) else { return true }
                // ...unless it is longer than any operation: skipped whole, with a message.
                let now = store.clock()
                report.skipped += 1
                try store.write("skip a peer's overlong line") { db in
                    try SyncLog.note(db, device, "devices/\(device)/\(file) at byte \(offset): skipped, the line is \(end - offset) bytes, longer than any operation (\(readLimit) bytes at most)", at: now)
                    try savePosition(db, device, file, end + 1)
                }
                offset = end + 1
                continue
            }
            guard try applyLines(data[...lastNewline], at: offset, device: device, file: file, into: &report) else { return false }
            offset += lastNewline - data.startIndex + 1
            if data.count < readLimit { return true }
        }
        return true
    }

    func savePosition(_ db: Database, _ device: String, _ file: String, _ end: Int) throws {
        try db.execute(sql: """
            INSERT INTO syncPeerFile(device, file, offset) VALUES (?, ?, ?)
            ON CONFLICT(device, file) DO UPDATE SET offset = excluded.offset
            """, arguments: [device, file, end])
    }

    /// Applies complete lines `data` (ending with a newline) read from `offset` of a peer's file, in chunks; false when
    /// it stopped at a line to keep with `keptLimit` lines of the device kept already (the position stays there).
    func applyLines(_ data: Data, at offset: Int, device: String, file: String, into report: inout SyncImportReport) throws -> Bool {
        guard let lastNewline = data.lastIndex(of: 0x0A) else { return true }
        var lines: [(at: Int, bytes: Data)] = []
        var start = data.startIndex
        while start <= lastNewline, let nl = data[start...].firstIndex(of: 0x0A) {
            lines.append((offset + (start - data.startIndex), data[start..<nl]))
            start = nl + 1
        }
        let now = store.clock()
        let nowMs = HybridClock.milliseconds(now)
        var stopped = false
        for chunkStart in stride(from: 0, to: lines.count, by: Self.chunkLines) {
            let chunk = lines[chunkStart..<min(chunkStart + Self.chunkLines, lines.count)]
            var end = chunkStart + Self.chunkLines >= lines.count
                ? offset + (lastNewline - data.startIndex) + 1
                : lines[chunkStart + Self.chunkLines].at
            var local = SyncImportReport()
            try store.write("apply a peer's changes") { db in
                var ops: [SyncOperation] = []
                var kept = try Int.fetchOne(db, sql: "SELECT count(*) FROM syncParked WHERE device = ?", arguments: [device]) ?? 0
                /// Whether `keptLimit` lines of the device wait already: then reading stops before this line.
                func full(_ at: Int) throws -> Bool {
                    guard kept >= keptLimit else { kept += 1; return false }
                    end = at
                    stopped = true
                    try SyncLog.note(db, device, "device \(device) has \(kept) changes waiting (from a newer Engram, or dated ahead of this clock): the rest of its log is read once they can be applied; update Engram here, or check that device's clock", at: now)
                    return true
                }
                reading: for (at, bytes) in chunk where !bytes.isEmpty {
                    let place = "devices/\(device)/\(file) at byte \(at)"
                    // Not valid UTF-8: skipped whole, never applied with its bad bytes replaced.
                    guard let text = String(validating: bytes, as: UTF8.self) else {
                        local.skipped += 1
                        try SyncLog.note(db, device, "\(place): skipped, not valid UTF-8 (byte \(TextInput.firstInvalidOffset(Data(bytes))) of the line)", at: now)
                        continue
                    }
                    switch SyncOperation.parse(Substring(text), now: nowMs) {
                    case .operation(let op):
                        if op.dev == device {
                            ops.append(op)
                        } else {
                            local.skipped += 1
                            try SyncLog.note(db, device, "\(place): an operation of device \(op.dev) in device \(device)'s folder; ignored", at: now)
                        }
                    case .newer(let why):
                        if try full(at) { break reading }
                        try keep(db, text, device: device, file: file, at: at, why: why, "\(place): kept for later, \(why); update Engram on this device to apply it", &local)
                    case .early(let why):
                        if try full(at) { break reading }
                        try keep(db, text, device: device, file: file, at: at, why: why, "\(place): \(why)", &local)
                    case .corrupt(let why):
                        local.skipped += 1
                        try SyncLog.note(db, device, "\(place): skipped, \(why)", at: now)
                    }
                }
                for warning in try SyncLog.applyRemote(db, ops, at: now) { try SyncLog.note(db, device, warning, at: now) }
                local.applied = ops.count
                local.forgotten = ops.filter { $0.op == .forget }.count
                try savePosition(db, device, file, end)
                let isNew = try !(Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM syncPeer WHERE device = ?)", arguments: [device]) ?? false)
                try db.execute(sql: """
                    INSERT INTO syncPeer(device, received, firstSeen, lastSeen) VALUES (?, ?, ?, ?)
                    ON CONFLICT(device) DO UPDATE SET received = received + excluded.received, lastSeen = excluded.lastSeen
                    """, arguments: [device, ops.count, now, now])
                if isNew { try SyncLog.note(db, device, "new device \(device): reading its changes", at: now, problem: false) }
            }
            report.applied += local.applied
            report.parked += local.parked
            report.skipped += local.skipped
            report.forgotten += local.forgotten
            try crashPoint?("sync-import-chunk")
            if stopped { return false }
        }
        return true
    }

    /// Keeps a line to apply later (`syncParked`), unless it is about an item forgotten here: it may hold its text.
    func keep(_ db: Database, _ text: String, device: String, file: String, at: Int, why: String, _ message: String,
              _ local: inout SyncImportReport) throws {
        let now = store.clock()
        if try SyncOperation.names(text).contains(where: { try SyncMerge.isBuriedAnywhere(db, $0) }) {
            local.skipped += 1
            try SyncLog.note(db, device, "devices/\(device)/\(file) at byte \(at): skipped, it is about an item forgotten here", at: now)
            return
        }
        local.parked += 1
        try db.execute(sql: "INSERT OR IGNORE INTO syncParked(device, file, offset, line, reason) VALUES (?, ?, ?, ?, ?)",
                       arguments: [device, file, at, text, why])
        try SyncLog.note(db, device, message, at: now)
    }

    /// Applies the kept lines this Engram now understands and those whose time has come; drops those about a
    /// forgotten item.
    /// Returns whether it dropped a line about a forgotten item.
    @discardableResult
    func retryParked(_ report: inout SyncImportReport) throws -> Bool {
        let now = store.clock()
        let nowMs = HybridClock.milliseconds(now)
        let (ops, erased) = try store.write("apply kept changes") { db -> ([SyncOperation], Bool) in
            var ops: [SyncOperation] = []
            var erased = false
            for row in try Row.fetchAll(db, sql: "SELECT device, file, offset, line FROM syncParked") {
                let line: String = row["line"]
                let buried = try SyncOperation.names(line).contains { try SyncMerge.isBuriedAnywhere(db, $0) }
                erased = erased || buried
                if !buried {
                    let device: String = row["device"]
                    switch SyncOperation.parse(Substring(line), now: nowMs) {
                    case .operation(let op) where op.dev == device:
                        ops.append(op)
                    case .newer, .early:
                        continue  // still waiting
                    case .operation:
                        try SyncLog.note(db, device, "a kept line of devices/\(device)/\(row["file"] as String) is another device's operation; dropped", at: now)
                    case .corrupt(let why):
                        // Understood now (this Engram was updated) and found wrong: dropped, so it no longer counts
                        // against the device's kept lines.
                        try SyncLog.note(db, device, "a kept line of devices/\(device)/\(row["file"] as String) at byte \(row["offset"] as Int) can no longer be applied: \(why); dropped", at: now)
                    }
                }
                try db.execute(sql: "DELETE FROM syncParked WHERE device = ? AND file = ? AND offset = ?",
                               arguments: [row["device"] as String, row["file"] as String, row["offset"] as Int])
            }
            _ = try SyncLog.applyRemote(db, ops, at: now)
            return (ops, erased)
        }
        report.applied += ops.count
        report.forgotten += ops.filter { $0.op == .forget }.count
        return erased
    }

    /// Records a message for `sync status` (once) and in the journal.
    func note(_ device: String?, _ message: String) throws {
        let now = store.clock()
        try store.write("record a sync message") { db in try SyncLog.note(db, device, message, at: now) }
    }
}
