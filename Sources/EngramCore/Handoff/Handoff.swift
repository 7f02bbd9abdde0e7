import Foundation
import GRDB

/// Handoff between the person's devices through the sync folder: each device publishes what it is doing
/// (`HandoffActivity`), the others offer to continue it, and continuing a session moves it without counting
/// any time twice.
///
/// A session's studied time is the sum of per-device counters (sync's `seconds` counter): a device adds to its
/// own counter the length of each running stretch it ends. So a session must run on one device at a time. The
/// move is a claim and an answer:
/// 1. the continuing device writes `claim.json` (the session, the origin, the moment the person chose);
/// 2. the origin, seeing the claim on the session it runs, pauses it as of that moment (its counter ends there),
///    writes the pause to its log and marks its activity handed over;
/// 3. the continuing device, once its store shows the session paused and the origin's activity no longer
///    running, resumes it as of the claim's moment: its own stretch starts where the origin's ended.
///
/// An origin that is offline answers when it comes back, within the offer window (`[sync] handoff_minutes`);
/// until then the session stays where it is and this device waits. A claim older than the window is dropped on
/// both sides, so a stretch is never counted by two devices and a late answer never credits hours nobody studied.
public struct Handoff: Sendable {
    /// The store whose sessions move.
    public let store: Store
    /// The sync folder.
    public let root: String
    /// How long an activity is offered, and a claim honoured.
    public var window: TimeInterval
    /// This device's name as shown on the others.
    public var deviceName: String

    /// Handoff for `store` through the sync folder `root`.
    public init(store: Store, root: String, minutes: Double = 15, deviceName: String = Handoff.hostName) {
        self.store = store
        self.root = root
        self.window = minutes * 60
        self.deviceName = deviceName
    }

    /// This machine's host name, as the other devices show it.
    public static var hostName: String { HostName.current ?? "another computer" }

    /// A running session's activity is offered this long at most without being written again (a device that
    /// went to sleep mid-session).
    static let runningLimit: TimeInterval = 12 * 3600

    var devicesDirectory: String { root + "/devices" }

    func file(_ device: String, _ name: String) -> String { devicesDirectory + "/" + device + "/" + name }

    /// This device's sync id, nil until sync is on (`engram sync now` once).
    public func ownDevice() throws -> String? { try store.read { db in try SyncLog.device(db) } }

    // MARK: Publishing

    /// Publishes a learning session this device changed (`handedTo`: the device it was handed to).
    public func publish(_ s: Session, handedTo: String? = nil) throws {
        guard s.kind == .learning, let me = try ownDevice() else { return }
        let now = store.clock()
        let curriculum = try s.curriculumID.flatMap { try store.curriculum(id: $0)?.title }
        let topic = try s.topicID.flatMap { try store.topic(id: $0)?.title }
        let state = s.state == .running ? "running" : s.state == .paused ? "paused" : "ended"
        var a = ownActivity(me) ?? HandoffActivity(device: me, deviceName: deviceName, written: now)
        a.session = .init(id: s.id, curriculum: curriculum ?? s.title, topic: curriculum == nil ? nil : topic, state: state,
                          elapsedSeconds: s.elapsed(at: now), handedTo: handedTo)
        try write(a, at: now)
    }

    /// Publishes a memory this device opened.
    public func publish(memory m: Memory) throws {
        guard let me = try ownDevice() else { return }
        let now = store.clock()
        var a = ownActivity(me) ?? HandoffActivity(device: me, deviceName: deviceName, written: now)
        a.memory = .init(id: m.id, title: m.title, opened: now)
        try write(a, at: now)
    }

    /// Takes a forgotten memory (here or on a peer) out of this device's published activity, as compaction takes
    /// it out of the device's log: forgetting leaves the title in no file of the sync folder.
    static func dropForgottenMemory(_ db: Database, activityIn dir: String, device: String) throws {
        let path = dir + "/" + HandoffActivity.fileName
        guard var a = HandoffActivity.read(path, device: device), let m = a.memory,
              try !(Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM memory WHERE id = ?)", arguments: [m.id]) ?? false)
        else { return }
        a.memory = nil
        try DurableFile.replace(path, with: try a.encoded())
    }

    func ownActivity(_ me: String) -> HandoffActivity? { HandoffActivity.read(file(me, HandoffActivity.fileName), device: me) }

    func write(_ activity: HandoffActivity, at now: Date) throws {
        var a = activity
        a.written = now
        a.deviceName = deviceName
        try EngramPaths.ensurePrivateDirectory(devicesDirectory)
        try EngramPaths.ensurePrivateDirectory(devicesDirectory + "/" + a.device)
        try DurableFile.replace(file(a.device, HandoffActivity.fileName), with: try a.encoded())
    }

    // MARK: Offers

    /// Another device's activity this device may continue.
    public struct Offer: Sendable, Equatable {
        public enum Kind: String, Sendable { case session, memory }
        /// The activity offered.
        public var activity: HandoffActivity
        public var kind: Kind
        /// Seconds since the activity was written (or the memory opened).
        public var age: TimeInterval
        /// Minutes studied so far (sessions).
        public var minutes: Int

        /// Creates an offer.
        public init(activity: HandoffActivity, kind: Kind, age: TimeInterval, minutes: Int) {
            self.activity = activity
            self.kind = kind
            self.age = age
            self.minutes = minutes
        }

        /// The item's id: the session's or the memory's.
        public var itemID: String { kind == .session ? activity.session?.id ?? "" : activity.memory?.id ?? "" }
        /// Names the offer in notifications and lists: "Swift Concurrency — Sendable, 12 min".
        public var text: String {
            switch kind {
            case .session: return "\(activity.session?.title ?? ""), \(minutes) min"
            case .memory: return activity.memory?.title ?? ""
            }
        }
        /// What a notification shows apart from the minutes: while it stays the same, one shown need not change.
        public var identity: String {
            "\(kind.rawValue) \(itemID) \(activity.session?.state ?? "") \(activity.session?.title ?? activity.memory?.title ?? "")"
        }
    }

    /// The other devices' activities to offer here, newest first: a session running there (or paused within the
    /// window, not handed over, not ended here, not claimed by this device) and a memory opened within the window.
    public func offers() throws -> [Offer] {
        guard window > 0, let me = try ownDevice() else { return [] }
        let now = store.clock()
        let claim = ownClaim(me)
        let mine = ownActivity(me)
        var out: [Offer] = []
        for device in ((try? FileManager.default.contentsOfDirectory(atPath: devicesDirectory)) ?? []).sorted()
        where device != me && DeviceID.isValid(device) {
            // A file dated ahead of this clock by more than the window is a clock gone wrong: never offered, so a
            // peer's fast clock cannot keep an offer up for days.
            guard let a = HandoffActivity.read(file(device, HandoffActivity.fileName), device: device),
                  a.written.timeIntervalSince(now) <= window else { continue }
            let age = max(0, now.timeIntervalSince(a.written))
            if let s = a.session, s.handedTo == nil, s.state == "running" ? age <= Self.runningLimit : (s.state == "paused" && age <= window),
               claim?.session != s.id, !(mine?.session?.id == s.id && mine?.session?.state == "running"),
               try store.session(id: s.id)?.isActive ?? true {
                out.append(Offer(activity: a, kind: .session, age: age, minutes: Int(saturating: a.elapsed(at: now) / 60)))
            }
            // A memory this device itself opened within the window is not offered back to it (after a move, the
            // device it came from would otherwise be asked to continue what it just had open).
            if let m = a.memory, abs(now.timeIntervalSince(m.opened)) <= window,
               !(mine?.memory.map { $0.id == m.id && abs(now.timeIntervalSince($0.opened)) <= window } ?? false),
               try store.memory(id: m.id) != nil {
                out.append(Offer(activity: a, kind: .memory, age: max(0, now.timeIntervalSince(m.opened)), minutes: 0))
            }
        }
        return out.sorted { $0.kind == $1.kind ? $0.age < $1.age : $0.kind == .session }
    }

    /// The offer `which` names (a device id or name, a session or memory id), or the first offer when nil.
    public func offer(_ which: String?) throws -> Offer {
        let all = try offers()
        guard let first = all.first else {
            throw EngramError.notFound("nothing to continue: no other device published a recent activity in the sync folder")
        }
        guard let which else { return first }
        if let o = all.first(where: { $0.activity.device == which || $0.itemID == which })
            ?? all.first(where: { $0.activity.deviceName.caseInsensitiveCompare(which) == .orderedSame }) {
            return o
        }
        throw EngramError.notFound("no recent activity of a device or item '\(which)'; `engram handoff` lists them")
    }

    // MARK: Continuing

    /// How a continued session stands.
    public enum ClaimState: Sendable, Equatable {
        /// No claim is pending.
        case none
        /// The origin has not let go of the session yet.
        case waiting(HandoffClaim)
        /// The session runs here now.
        case resumed(Session)
        /// The claim was given up (why, in words).
        case dropped(String)
    }

    /// Claims the session `offer` shows for this device and resumes it here if its origin let go of it already.
    public func claim(_ offer: Offer) throws -> ClaimState {
        guard offer.kind == .session, let s = offer.activity.session, let me = try ownDevice() else {
            throw EngramError.invalidInput("only a session is claimed; a memory is opened")
        }
        let claim = HandoffClaim(device: me, origin: offer.activity.device, session: s.id, claimed: store.clock())
        try EngramPaths.ensurePrivateDirectory(devicesDirectory + "/" + me)
        try DurableFile.replace(file(me, HandoffClaim.fileName), with: try HandoffJSON.encoder.encode(claim))
        return try completeClaim()
    }

    func ownClaim(_ me: String) -> HandoffClaim? { HandoffClaim.read(file(me, HandoffClaim.fileName), device: me) }

    /// The claim this device is waiting on, if any.
    public func pendingClaim() throws -> HandoffClaim? { try ownDevice().flatMap(ownClaim) }

    /// The link another device follows to continue this device's activity, nil when there is nothing to continue.
    public func ownLink() throws -> DeepLink? {
        guard let me = try ownDevice(), let a = ownActivity(me), a.session?.state == "running" || a.memory != nil else { return nil }
        return .handoff(device: me)
    }

    /// Resumes here, as of the claim's moment, the session this device claimed once its origin let go of it (its
    /// activity no longer running and the pause arrived through sync); drops a claim past the window.
    public func completeClaim() throws -> ClaimState {
        guard let me = try ownDevice(), let claim = ownClaim(me) else { return .none }
        let path = file(me, HandoffClaim.fileName)
        let now = store.clock()
        if now.timeIntervalSince(claim.claimed) > window {
            unlink(path)
            return .dropped("the other device did not hand the session over within \(Int(window / 60)) min (offline?); it was left there")
        }
        guard let s = try store.session(id: claim.session) else { return .waiting(claim) }  // not synced here yet
        guard s.isActive else {
            unlink(path)
            return .dropped("the session has ended (\(s.state.rawValue))")
        }
        // Only an origin that handed the session to this device paused it as of the claim: then this device's
        // stretch starts there. Handed to another device (two claims at once): that one continues it. Paused there
        // by the person instead (its daemon was off when the claim came): the origin counted up to that pause,
        // which may be after the claim, so this device starts now — never a second counted twice.
        guard let origin = HandoffActivity.read(file(claim.origin, HandoffActivity.fileName), device: claim.origin)?.session
        else { return .waiting(claim) }
        if origin.id == claim.session, let other = origin.handedTo, other != me {
            unlink(path)
            return .dropped("the session was continued on another device")
        }
        let handedHere = origin.id == claim.session && origin.handedTo == me
        let letGo = handedHere || origin.id != claim.session || origin.state != "running"
        guard letGo, s.state == .paused else { return .waiting(claim) }
        let resumed = try store.transition(.resume, sessionID: s.id, at: handedHere ? claim.claimed : max(now, claim.claimed))
        unlink(path)
        return .resumed(resumed)
    }

    /// On the origin: pauses the session this device runs as of the moment another device claimed it, writes the
    /// pause to this device's log and marks the activity handed over. Returns the sessions handed over.
    @discardableResult
    public func answerClaims() throws -> [Session] {
        guard let me = try ownDevice(), let mine = ownActivity(me)?.session, mine.state == "running", mine.handedTo == nil else { return [] }
        let now = store.clock()
        for device in ((try? FileManager.default.contentsOfDirectory(atPath: devicesDirectory)) ?? []).sorted()
        where device != me && DeviceID.isValid(device) {
            guard let claim = HandoffClaim.read(file(device, HandoffClaim.fileName), device: device),
                  claim.origin == me, claim.session == mine.id, now.timeIntervalSince(claim.claimed) <= window,
                  let s = try store.session(id: claim.session), s.state == .running,
                  (s.resumed ?? .distantFuture) <= claim.claimed  // a stretch begun after the claim: the claim is stale
            else { continue }
            let paused = try store.transition(.pause, sessionID: s.id, at: claim.claimed)
            try SyncFolder(store: store, root: root).export()
            try publish(paused, handedTo: device)
            return [paused]
        }
        return []
    }
}
