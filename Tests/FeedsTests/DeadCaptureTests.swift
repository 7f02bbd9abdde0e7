import EngramCore
import Foundation
import Testing

/// A capture whose `engram capture` was killed stays `running` in the store until something notices; the
/// built `engram-feed` must stop showing it at once, without writing the store.
@Suite struct DeadCaptureTests {
    /// What `engram-feed session --format json` shows: the state and the session's id and kind (nil when idle).
    struct Shown: Equatable { var state: String; var id: String?; var kind: String? }

    static func shown(_ f: FeedFixture) throws -> Shown {
        let out = try FeedProcessTests.run(["session", "--format", "json"], env: FeedProcessTests.environment(f))
        #expect(out.status == 0, "\(out.stderr)")
        let o = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any], "\(out.stdout)")
        let session = o["session"] as? [String: Any]
        return Shown(state: o["state"] as? String ?? "?", id: session?["id"] as? String, kind: session?["kind"] as? String)
    }

    /// This process's start time and boot id, from its identity `pid:start:boot`.
    static var me: (pid: Int32, start: UInt64, boot: String) {
        let parts = ProcessIdentity.current.split(separator: ":").map(String.init)
        return (getpid(), UInt64(parts[1])!, parts[2])
    }

    /// `sleep 60`, killed with SIGKILL as a person kills a stuck `engram capture`. Its identity is taken while it
    /// runs; `reap` false leaves it a zombie (the caller reaps it with `waitpid`).
    static func killedProcess(reap: Bool = true) throws -> (pid: pid_t, identity: String) {
        var pid: pid_t = 0
        let words: [String] = ["/bin/sleep", "60"]
        var argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        guard posix_spawn(&pid, "/bin/sleep", nil, nil, &argv, environ) == 0 else { throw EngramShell.Failure("cannot start /bin/sleep") }
        let identity = try #require(ProcessIdentity.identity(of: pid))
        #expect(ProcessIdentity.isAlive(identity))
        kill(pid, SIGKILL)
        // Killed but not reaped: a zombie once the kernel has taken it down (generous bound on a loaded machine).
        let deadline = Date().addingTimeInterval(10)
        while ProcessIdentity.identity(of: pid) != nil && Date() < deadline { usleep(5_000) }
        #expect(ProcessIdentity.identity(of: pid) == nil, "pid \(pid) still runs after SIGKILL")
        if reap {
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        return (pid, identity)
    }

    /// A store with one running capture hosted by `host` (at the fixture's 10:00) and nothing else.
    static func capture(host: String) throws -> (FeedFixture, Session) {
        let f = try FeedFixture()
        let s = try f.store.startCaptureSession(title: "Inbox zero", host: host)
        return (f, s)
    }

    @Test("a capture hosted by a running process (this test) shows")
    func liveCaptureShows() throws {
        let (f, s) = try Self.capture(host: ProcessIdentity.current)
        #expect(try Self.shown(f) == Shown(state: "running", id: s.id, kind: "capture"))
    }

    @Test("a capture whose process was killed shows nothing, as a zombie and once reaped, and the store is untouched")
    func killedCaptureHidden() throws {
        let killed = try Self.killedProcess(reap: false)
        let (f, s) = try Self.capture(host: killed.identity)
        let files = ["", "-wal"].map { f.storePath + $0 }
        let before = files.map { FileManager.default.contents(atPath: $0) }
        #expect(try Self.shown(f) == Shown(state: "idle", id: nil, kind: nil), "zombie host")
        var status: Int32 = 0
        waitpid(killed.pid, &status, 0)
        #expect(try Self.shown(f) == Shown(state: "idle", id: nil, kind: nil), "reaped host")
        #expect(files.map { FileManager.default.contents(atPath: $0) } == before, "the feed wrote the store")
        #expect(try f.store.session(id: s.id)?.state == .running, "the feed ended the capture; that is the core's job")
    }

    @Test("a host that never ran, or whose pid now names another process or boot, is dead", arguments: [
        "pid beyond any pid", "this pid, another start time", "this pid and start, another boot", "not an identity",
    ])
    func deadIdentities(_ which: String) throws {
        let me = Self.me
        let host = switch which {
        case "pid beyond any pid": "2147483647:\(me.start):\(me.boot)"
        case "this pid, another start time": "\(me.pid):\(me.start + 1):\(me.boot)"
        case "this pid and start, another boot": "\(me.pid):\(me.start):00000000-0000-0000-0000-000000000000"
        default: "engram capture"
        }
        #expect(!ProcessIdentity.isAlive(host), "the core calls \(host) alive")
        let (f, _) = try Self.capture(host: host)
        #expect(try Self.shown(f) == Shown(state: "idle", id: nil, kind: nil), "\(which): \(host)")
    }

    @Test("a learning session shows behind a newer capture whose process was killed; a live capture still comes first")
    func learningBehindDeadCapture() throws {
        let f = try FeedFixture.standard()
        let killed = try Self.killedProcess()
        _ = try f.store.startCaptureSession(title: "Killed", host: killed.identity)
        #expect(try Self.shown(f) == Shown(state: "running", id: "session-1", kind: "learning"))
        let live = try f.at(FeedFixture.now.addingTimeInterval(1)) { try f.store.startCaptureSession(title: "Live") }
        #expect(try Self.shown(f) == Shown(state: "running", id: live.id, kind: "capture"))
    }

    @Test("a store from before hosts were recorded (no host column) shows its capture as before")
    func storeWithoutHosts() throws {
        let f = try FeedFixture()
        let s = try f.store.startCaptureSession(title: "Old", host: "2147483647:1:gone")
        // As a store from before the migration: neither the column nor its migration's row.
        try f.execute("ALTER TABLE session DROP COLUMN host")
        try f.execute("DELETE FROM \(StoreSchema.migrationsTable) WHERE identifier = '\(StoreSchema.Migration.sessionHost.rawValue)'")
        #expect(try Self.shown(f) == Shown(state: "running", id: s.id, kind: "capture"))
    }
}
