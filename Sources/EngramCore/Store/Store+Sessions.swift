import Foundation
import GRDB

/// The session state machine, kept in the store so every front end (CLI, D-Bus, notification actions,
/// deep links) drives the same one and a crash loses nothing.
///
///     running ⇄ paused;  running|paused → stopped | completed;  ended stays ended (ending again is a no-op)
///
/// Pause, resume and stop without an id address the learning session. A capture belongs to the process
/// taking its lines (its `host`): it ends when its input does or with its notification's Done button, and
/// never from outside while that process runs. A capture whose process died is ended as interrupted
/// (`stopped`, with everything it captured) by whoever notices first: the daemon, `engram session status`,
/// the next capture.
extension Store {
    static let activeStates = [Session.State.running.rawValue, Session.State.paused.rawValue]

    /// The newest active (running or paused) session of `kind` (a learning session by default), or of any kind when nil.
    public func activeSession(kind: Session.Kind? = .learning) throws -> Session? {
        try read { db in
            var req = Session.filter(Store.activeStates.contains(Session.Columns.state))
            if let kind { req = req.filter(Session.Columns.kind == kind.rawValue) }
            return try req.order(Session.Columns.started.desc).fetchOne(db)
        }
    }

    /// Every active capture session, newest first.
    public func activeCaptures() throws -> [Session] {
        try read { db in
            try Session.filter(Store.activeStates.contains(Session.Columns.state))
                .filter(Session.Columns.kind == Session.Kind.capture.rawValue)
                .order(Session.Columns.started.desc).fetchAll(db)
        }
    }

    /// The session with `id`, or nil.
    public func session(id: String) throws -> Session? {
        try read { db in try Session.fetchOne(db, key: id) }
    }

    /// Sessions, newest first.
    public func sessions(limit: Int = 100) throws -> [Session] {
        try read { db in try Session.order(Session.Columns.started.desc).limit(limit).fetchAll(db) }
    }

    /// Starts a learning session on a curriculum (at `topicID`, or its first topic not done).
    public func startLearningSession(curriculumID: String, topicID: String? = nil) throws -> Session {
        let now = clock()
        return changed(try write("start the session") { db in
            if let active = try Session.filter(Store.activeStates.contains(Session.Columns.state))
                .filter(Session.Columns.kind == Session.Kind.learning.rawValue).fetchOne(db) {
                throw EngramError.invalidInput("a learning session is already \(active.state.rawValue): “\(active.title)” (\(active.id)); stop or resume it first")
            }
            guard let c = try Curriculum.fetchOne(db, key: curriculumID) else {
                throw EngramError.notFound("no curriculum with id '\(curriculumID)'; `engram search --kind curriculum …` lists them")
            }
            let topics = try Topic.filter(Topic.Columns.curriculumID == c.id).order(Topic.Columns.position).fetchAll(db)
            var topic: Topic?
            if let topicID {
                guard let t = topics.first(where: { $0.id == topicID }) else {
                    throw EngramError.notFound("curriculum '\(c.id)' has no topic '\(topicID)'")
                }
                topic = t
            } else {
                topic = topics.first { !$0.done } ?? topics.first
            }
            let s = Session(id: Identifier.make(), kind: .learning, title: topic.map { "\(c.title): \($0.title)" } ?? c.title,
                            curriculumID: c.id, topicID: topic?.id, state: .running, started: now,
                            progressDone: topics.filter(\.done).count, progressTotal: topics.count, updated: now)
            try s.insert(db)
            try Store.log(db, .session, detail: "start \(s.id)", at: now)
            try SyncLog.record(db, at: now) { r in try r.session(s, secondsBefore: 0) }
            return s
        })
    }

    /// Starts a capture session taking lines in process `host` (each captured line counts as progress).
    public func startCaptureSession(title: String = "Capture", host: String = ProcessIdentity.current) throws -> Session {
        let now = clock()
        return try write("start the capture session") { db in
            let s = Session(id: Identifier.make(), kind: .capture, title: title, state: .running, started: now, updated: now, host: host)
            try s.insert(db)
            try SyncLog.record(db, at: now) { r in try r.session(s, secondsBefore: 0) }
            return s
        }
    }

    /// Applies `action` to the session `id` (or the active learning session); ending an ended session returns it unchanged.
    ///
    /// A capture cannot be paused or resumed, and only stopped here when its process has died (it is then
    /// ended as interrupted); a running capture ends in its own process. `at` dates a pause or resume earlier than
    /// now (a handoff pauses the origin, and resumes here, as of the moment the person chose to continue).
    @discardableResult
    public func transition(_ action: DeepLink.SessionAction, sessionID: String? = nil, at when: Date? = nil) throws -> Session {
        let now = clock()
        let at = min(when ?? now, now)
        return changed(try write("change the session") { db in
            var s: Session
            if let id = sessionID {
                guard let found = try Session.fetchOne(db, key: id) else { throw EngramError.notFound("no session with id '\(id)'") }
                s = found
            } else {
                guard let found = try Session.filter(Store.activeStates.contains(Session.Columns.state))
                    .filter(Session.Columns.kind == Session.Kind.learning.rawValue)
                    .order(Session.Columns.started.desc).fetchOne(db) else {
                    throw EngramError.notFound("no learning session is running; `engram session start --curriculum ID` starts one")
                }
                s = found
            }
            let secondsBefore = s.accumulatedSeconds
            if s.kind == .capture, s.isActive {
                guard action == .stop, !s.hostIsAlive else {
                    let pid = s.host.flatMap(ProcessIdentity.pid(of:)).map { " (pid \($0))" } ?? ""
                    throw EngramError.invalidInput("“\(s.title)” is a capture\(pid): it ends in its own terminal with Ctrl-D, or with its notification's Done button")
                }
                Store.end(&s, .stopped, at: now)
                try s.update(db)
                try Store.log(db, .session, detail: "interrupt \(s.id)", at: now)
                try SyncLog.record(db, at: now) { r in try r.session(s, secondsBefore: secondsBefore) }
                return s
            }
            switch (action, s.state) {
            case (.pause, .running):
                s.accumulatedSeconds = s.elapsed(at: at)
                s.resumed = nil
                s.state = .paused
            case (.pause, .paused), (.resume, .running):
                return s
            case (.resume, .paused):
                s.resumed = at
                s.state = .running
            case (.stop, .running), (.stop, .paused):
                Store.end(&s, .stopped, at: now)
            case (.stop, .stopped), (.stop, .completed):
                return s
            case (.pause, .stopped), (.pause, .completed), (.resume, .stopped), (.resume, .completed):
                throw EngramError.invalidInput("session \(s.id) has ended (\(s.state.rawValue)); start a new one")
            }
            s.updated = now
            try s.update(db)
            try Store.log(db, .session, detail: "\(action.rawValue) \(s.id)", at: now)
            try SyncLog.record(db, at: now) { r in try r.session(s, secondsBefore: secondsBefore) }
            return s
        })
    }

    /// Marks the session's current topic done and moves to the next one; completes the session after the last.
    @discardableResult
    public func completeCurrentTopic(sessionID: String? = nil) throws -> Session {
        let now = clock()
        return changed(try write("advance the session") { db in
            let found = try sessionID.map { try Session.fetchOne(db, key: $0) }
                ?? Session.filter(Session.Columns.kind == Session.Kind.learning.rawValue)
                    .filter(Store.activeStates.contains(Session.Columns.state))
                    .order(Session.Columns.started.desc).fetchOne(db)
            guard var s = found, s.isActive, s.kind == .learning, let cid = s.curriculumID else {
                throw EngramError.notFound("no learning session is running")
            }
            let secondsBefore = s.accumulatedSeconds
            if let tid = s.topicID, var t = try Topic.fetchOne(db, key: tid), !t.done {
                t.done = true
                t.updated = now
                try t.update(db)
                try Store.enqueue(db, .topic, t.id, at: now)
                try SyncLog.record(db, at: now) { r in try r.set(.topic, t, only: ["done", "updated"]) }
            }
            let topics = try Topic.filter(Topic.Columns.curriculumID == cid).order(Topic.Columns.position).fetchAll(db)
            s.progressDone = topics.filter(\.done).count
            s.progressTotal = topics.count
            let title = try Curriculum.fetchOne(db, key: cid)?.title ?? cid
            if let next = topics.first(where: { !$0.done }) {
                s.topicID = next.id
                s.title = "\(title): \(next.title)"
            } else {
                Store.end(&s, .completed, at: now)
            }
            s.updated = now
            try s.update(db)
            try SyncLog.record(db, at: now) { r in try r.session(s, secondsBefore: secondsBefore) }
            return s
        })
    }

    /// Records capture progress on a capture session.
    @discardableResult
    public func recordCapture(sessionID: String) throws -> Session {
        let now = clock()
        return try write("update the capture session") { db in
            guard var s = try Session.fetchOne(db, key: sessionID) else { throw EngramError.notFound("no session with id '\(sessionID)'") }
            s.progressDone += 1
            s.updated = now
            try s.update(db)
            try SyncLog.record(db, at: now) { r in try r.session(s, secondsBefore: s.accumulatedSeconds) }
            return s
        }
    }

    /// Marks a session completed (idempotent).
    @discardableResult
    public func completeSession(id: String) throws -> Session {
        let now = clock()
        return changed(try write("complete the session") { db in
            guard var s = try Session.fetchOne(db, key: id) else { throw EngramError.notFound("no session with id '\(id)'") }
            guard s.isActive else { return s }
            let secondsBefore = s.accumulatedSeconds
            Store.end(&s, .completed, at: now)
            try s.update(db)
            try SyncLog.record(db, at: now) { r in try r.session(s, secondsBefore: secondsBefore) }
            return s
        })
    }

    /// Ends, as interrupted, every active capture whose process is gone (killed, crashed, its machine
    /// rebooted); what they captured stays. Returns the captures ended.
    @discardableResult
    public func endOrphanedCaptures() throws -> [Session] {
        // Most calls find nothing: look before taking the write lock.
        // A capture without a host came from another device (sync does not carry hosts, which name processes
        // of their own machine): it runs there, and only that device may end it.
        guard try activeCaptures().contains(where: { $0.host != nil && !$0.hostIsAlive }) else { return [] }
        let now = clock()
        return try write("end interrupted captures") { db in
            var ended: [Session] = []
            let active = try Session.filter(Store.activeStates.contains(Session.Columns.state))
                .filter(Session.Columns.kind == Session.Kind.capture.rawValue).fetchAll(db)
            for var s in active where s.host != nil && !s.hostIsAlive {
                let secondsBefore = s.accumulatedSeconds
                Store.end(&s, .stopped, at: now)
                try s.update(db)
                try SyncLog.record(db, at: now) { r in try r.session(s, secondsBefore: secondsBefore) }
                try Store.log(db, .session, detail: "interrupt \(s.id)", at: now)
                ended.append(s)
            }
            return ended
        }
    }

    /// Makes `host` the process showing the active session `sessionID`, unless another running process
    /// does; returns whether `host` hosts it now.
    @discardableResult
    public func claimHost(sessionID: String, host: String) throws -> Bool {
        guard let seen = try session(id: sessionID), seen.isActive else { return false }
        if seen.host == host { return true }
        if let other = seen.host, ProcessIdentity.isAlive(other) { return false }
        return try write("take over the session") { db in
            guard var s = try Session.fetchOne(db, key: sessionID), s.isActive else { return false }
            if s.host == host { return true }
            if let other = s.host, ProcessIdentity.isAlive(other) { return false }
            s.host = host
            try s.update(db)
            return true
        }
    }

    /// Lets go of the session, if `host` hosts it, with the notification it showed (taken down by then).
    public func releaseHost(sessionID: String, host: String) throws {
        try write("let go of the session") { db in
            guard var s = try Session.fetchOne(db, key: sessionID), s.host == host else { return }
            s.host = s.kind == .capture ? s.host : nil
            s.notification = nil
            try s.update(db)
        }
    }

    /// Records the live notification `host` shows for the session (nil: none).
    public func recordNotification(sessionID: String, host: String, _ notification: String?) throws {
        try write("record the session's notification") { db in
            guard var s = try Session.fetchOne(db, key: sessionID), s.host == host, s.notification != notification else { return }
            s.notification = notification
            try s.update(db)
        }
    }

    /// Ends `s` in `state` (stopped or completed) at `now`, keeping the time it ran.
    static func end(_ s: inout Session, _ state: Session.State, at now: Date) {
        s.accumulatedSeconds = s.elapsed(at: now)
        s.resumed = nil
        s.state = state
        s.ended = now
        s.updated = now
    }
}
