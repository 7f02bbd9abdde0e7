import DBus
import Dispatch
import EngramCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import EngramApp
import Indexer
import Logging
import ServiceLifecycle
import Synchronization

/// Holds the index writer while the daemon runs and does every index write on one serial queue:
/// applying the outbox, sweeping faded items, rebuilding.
///
/// Holding the writer is what makes the daemon the index writer: every other process finds it busy
/// and leaves the outbox to the daemon. Requests to apply coalesce: however many nudges arrive while
/// one pass waits, one pass serves them all, and a nudge that arrives during a pass gets a pass after it.
///
/// As a service it applies every `applyInterval` even without a nudge, sweeps faded items `firstSweep` after it
/// starts (so a daemon that lives a few minutes still sweeps) and then every `sweepInterval`, tries to take a
/// writer held by another process every `writerRetryInterval`, and at shutdown commits what is pending, compacts
/// if a forget is waiting for it, and lets go of the writer. Every commit is posted as `.committed`.
final class IndexKeeper: Service, @unchecked Sendable {
    /// How often the keeper's own passes run.
    struct Timing: Sendable {
        var applyInterval: Duration = .seconds(30)
        var sweepInterval: Duration = .seconds(3600)
        var firstSweep: Duration = .seconds(60)
        var writerRetryInterval: Duration = .seconds(1)
    }

    /// What an apply request learns when its pass is done.
    enum Outcome: Sendable {
        /// The pass ran; the index holds every change up to `lastSeq`.
        case applied(ApplyReport)
        /// Another process holds the writer (the keeper keeps trying to take it).
        case busy
        /// The pass failed.
        case failed(String)
    }

    private let library: Library
    private let log: Logger
    private let queue = DispatchQueue(label: "org.engram.daemon.index-writer", qos: .utility)
    private let events: LibraryEvents
    private let timing: Timing

    // Confined to `queue`:
    private var writer: IndexWriter? {
        didSet { writerHeld.store(writer != nil, ordering: .releasing) }
    }
    private let writerHeld = Atomic<Bool>(false)
    private var closed = false
    private var lastRepair: ContinuousClock.Instant?
    private var compactionScheduled = false

    private struct Pending {
        var scheduled = false
        var waiters: [@Sendable (Outcome) -> Void] = []
    }
    private let pending = Mutex(Pending())
    private let appliedSeq = Atomic<Int64>(0)
    /// Embedding for meaning search runs here, in the background, after the words are searchable: a thread of its
    /// own, since the embedder lowers its thread's priority (`WorkerThread`).
    private let embedQueue = WorkerThread(name: "org.engram.daemon.embedder", qualityOfService: .background)
    private let embedScheduled = Atomic<Bool>(false)

    init(library: Library, log: Logger, events: LibraryEvents, timing: Timing = Timing()) {
        self.library = library
        self.log = log
        self.events = events
        self.timing = timing
    }

    /// After a pass that changed the index (commit, sweep, rebuild, compaction): searches drop cached results, the
    /// glance is recomputed.
    private func onCommit() {
        IndexChanges.note()
        events.post(.committed)
    }

    /// Applies what is pending now, then runs the keeper's timers until the daemon stops; then `close()`.
    func run() async throws {
        requestApply()
        await cancelOnGracefulShutdown { [self] in
            await withDiscardingTaskGroup { group in
                group.addTask { await repeating(every: self.timing.applyInterval) { self.requestApply() } }
                group.addTask {
                    await repeating(every: self.timing.sweepInterval, first: min(self.timing.firstSweep, self.timing.sweepInterval)) {
                        self.sweep()
                    }
                }
                group.addTask { await repeating(every: self.timing.writerRetryInterval) { self.retakeIfNeeded() } }
            }
        }
        close()
    }

    /// Indexes pending changes now; answers the last change the index holds (`Engram1.Sync`).
    func sync(done: @escaping @Sendable (Result<UInt64, any Error>) -> Void) {
        requestApply { outcome in
            switch outcome {
            case .applied(let report): done(.success(UInt64(max(0, report.lastSeq))))
            case .busy: done(.failure(DBusError(name: EngramBus.errorPrefix + "Busy",
                                                message: "another Engram process holds the index writer; the daemon indexes once it is free")))
            case .failed(let message): done(.failure(DBusError(name: EngramBus.errorPrefix + "Index", message: message)))
            }
        }
    }

    /// The last store change the index holds, as of the last pass.
    var lastAppliedSeq: Int64 { appliedSeq.load(ordering: .acquiring) }

    /// The index's change count (`IndexChanges`) while the keeper holds the writer, so that nothing but this process
    /// changes the index; nil while it does not (another process may be writing it).
    var changeStamp: UInt64? {
        writerHeld.load(ordering: .acquiring) ? IndexChanges.count : nil
    }

    /// Whether the keeper holds the writer now (read on the writer queue).
    var holdsWriter: Bool { queue.sync { writer != nil } }

    /// Takes the writer (pending changes are applied by the next `requestApply`); false if another process holds it.
    @discardableResult
    func start() -> Bool {
        queue.sync { takeWriter() }
    }

    /// Asks for an apply pass; `done`, if given, runs on the writer queue when a pass that saw this request ends.
    func requestApply(_ done: (@Sendable (Outcome) -> Void)? = nil) {
        let schedule = pending.withLock { p -> Bool in
            if let done { p.waiters.append(done) }
            if p.scheduled { return false }
            p.scheduled = true
            return true
        }
        guard schedule else { return }
        queue.async {
            let waiters = self.pending.withLock { p -> [@Sendable (Outcome) -> Void] in
                p.scheduled = false
                defer { p.waiters = [] }
                return p.waiters
            }
            let outcome = self.runApply()
            for waiter in waiters { waiter(outcome) }
        }
    }

    /// Applies what is pending, then removes faded items from the index and commits.
    func sweep(_ done: (@Sendable (Result<Int, any Error>) -> Void)? = nil) {
        queue.async {
            guard !self.closed else { return }
            _ = self.runApply()
            guard let writer = self.writer else { done?(.success(0)); return }
            let result = Result { () throws -> Int in
                let removed = try writer.sweepExpired(now: self.library.store.clock())
                if !removed.isEmpty {
                    try writer.commit(lastAppliedSeq: try writer.lastAppliedSeq())
                    self.log.info("swept faded items from the index", metadata: ["count": "\(removed.count)"])
                    Heap.releaseFreedMemory()
                    self.onCommit()
                }
                return removed.count
            }
            if case .failure(let error) = result {
                self.log.error("sweeping faded items failed", metadata: ["error": "\(error)"])
                self.dropWriter()
            }
            done?(result)
        }
    }

    /// Rebuilds the index from the store and swaps it in, releasing and re-taking the writer around it.
    func rebuild(_ done: @escaping @Sendable (Result<ApplyReport, any Error>) -> Void) {
        queue.async {
            guard !self.closed else { done(.failure(DaemonError.dbus(EngramError.io("the daemon is stopping")))); return }
            let start = ContinuousClock.now
            self.writer?.close()
            self.writer = nil
            let result = Result { try self.library.rebuild() }
            if case .success(let report) = result {
                self.appliedSeq.store(report.lastSeq, ordering: .releasing)
                self.log.info("rebuilt the index", metadata: ["items": "\(report.upserted)", "ms": "\(Self.ms(since: start))"])
            } else if case .failure(let error) = result {
                self.log.error("rebuilding the index failed", metadata: ["error": "\(error)"])
            }
            _ = self.takeWriter()
            Heap.releaseFreedMemory()
            self.onCommit()
            done(result)
        }
    }

    /// Rebuilds the index from the store when a search found it missing or damaged. Reports that arrive while a
    /// repair runs, or within a few seconds after one, are served by it.
    func repairIfDamaged(_ why: String) {
        let asked = ContinuousClock.now
        queue.async {
            guard !self.closed else { return }
            if let last = self.lastRepair, last > asked - .seconds(5) { return }
            _ = self.repair(because: why)
        }
    }

    /// Tries to take the writer if it is not held (after another process let it go).
    func retakeIfNeeded() {
        queue.async {
            guard !self.closed, self.writer == nil else { return }
            if self.takeWriter() { _ = self.runApply() }
        }
    }

    /// Applies what is pending, commits and releases the writer; later requests do nothing.
    func close() {
        queue.sync {
            guard !closed else { return }
            if writer != nil { _ = runApply() }
            // Forgotten items' bytes do not outlive the daemon: a compaction still due is done before it lets go.
            if let writer, (try? writer.compactionDue()) != nil { compact() }
            writer?.close()
            writer = nil
            closed = true
        }
    }

    // MARK: On the queue

    /// Opens the writer; false if another process holds it.
    private func takeWriter() -> Bool {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !closed else { return false }
        if writer != nil { return true }
        do {
            if try library.missingIndexNeedsRebuild() {
                return repair(because: "it is missing")
            }
            writer = try IndexWriter.open(at: library.paths.indexPath, create: true)
            if try library.indexMissesChanges(writer!) {
                return repair(because: "it holds fewer changes than the store has made")
            }
            appliedSeq.store(try writer!.lastAppliedSeq(), ordering: .releasing)
            log.info("holding the index writer", metadata: ["index": "\(library.paths.indexPath)"])
            scheduleCompactionIfDue()
            return true
        } catch IndexError.locked {
            return false
        } catch let error where Library.isDamage(error, opening: true) {
            return repair(because: "\(error)")
        } catch {
            log.error("cannot open the index for writing", metadata: ["error": "\(error)"])
            return false
        }
    }

    /// Rebuilds a missing or damaged index from the store, then takes the writer; false if that failed.
    private func repair(because why: String) -> Bool {
        dispatchPrecondition(condition: .onQueue(queue))
        dropWriter()
        log.warning("the search index is missing or damaged; rebuilding it from the store", metadata: ["reason": "\(why)"])
        let start = ContinuousClock.now
        defer { lastRepair = .now }
        do {
            let report = try library.rebuild()
            writer = try IndexWriter.open(at: library.paths.indexPath, create: false)
            appliedSeq.store(try writer!.lastAppliedSeq(), ordering: .releasing)
            log.notice("rebuilt the search index from the store", metadata: ["items": "\(report.upserted)", "ms": "\(Self.ms(since: start))"])
            onCommit()
            return true
        } catch IndexError.locked {
            dropWriter()
            return false
        } catch {
            log.error("rebuilding the damaged search index failed; will retry", metadata: ["error": "\(error)"])
            dropWriter()
            return false
        }
    }

    /// Schedules a compaction when the index records deletions not yet compacted away: `indexCompactDelay` seconds
    /// after the first of them, so forgets in a burst share one compaction and none waits longer than that.
    private func scheduleCompactionIfDue(retry: Bool = false) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !closed, !compactionScheduled, let writer, let due = try? writer.compactionDue() else { return }
        compactionScheduled = true
        let delay = library.config.indexCompactDelay
        let wait = retry ? max(delay, 5) : min(max(0, due.timeIntervalSince(library.store.clock()) + delay), delay)
        queue.asyncAfter(deadline: .now() + wait) {
            guard !self.closed else { return }
            _ = self.runApply()  // what came meanwhile (another forget shares this compaction)
            let ok = self.writer.map { (try? $0.compactionDue()) == nil } ?? true || self.compact()
            self.compactionScheduled = false
            if !ok { self.scheduleCompactionIfDue(retry: true) }
        }
    }

    /// Compacts the index into a new generation (releasing and re-taking the writer around it); false if it failed.
    @discardableResult
    private func compact() -> Bool {
        dispatchPrecondition(condition: .onQueue(queue))
        let start = ContinuousClock.now
        dropWriter()
        var done = false
        do {
            try IndexCompactor.compact(stubPath: library.paths.indexPath)
            log.info("compacted the index: forgotten items' bytes are gone from its files", metadata: ["ms": "\(Self.ms(since: start))"])
            done = true
        } catch {
            log.error("compacting the index after a forget failed; will retry", metadata: ["error": "\(error)"])
        }
        if !closed { _ = takeWriter() }
        onCommit()
        return done
    }

    private func dropWriter() {
        writer?.close()
        writer = nil
    }

    /// One apply pass with the held writer.
    private func runApply(repairing: Bool = true) -> Outcome {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !closed else { return .failed("the daemon is stopping") }
        guard writer != nil || takeWriter(), let writer else { return .busy }
        let start = ContinuousClock.now
        do {
            var report = try library.indexOutbox(with: writer)
            appliedSeq.store(report.lastSeq, ordering: .releasing)
            if report.applied > 0 {
                log.info("applied changes to the index", metadata: [
                    "changes": "\(report.applied)", "seq": "\(report.lastSeq)", "ms": "\(Self.ms(since: start))",
                ])
                onCommit()
            }
            // After the commit event (the words are searchable): the outbox's consumers, links here, vectors on
            // their own queue.
            report.linked = try library.followIndex(writer)
            if report.applied >= Self.bigPass { Heap.releaseFreedMemory() }
            requestEmbed()
            scheduleCompactionIfDue()
            return .applied(report)
        } catch let error where Library.isDamage(error, opening: false) && repairing {
            guard repair(because: "\(error)") else { return .failed(String(describing: error)) }
            return runApply(repairing: false)
        } catch {
            log.error("applying changes to the index failed; will retry", metadata: ["error": "\(error)"])
            dropWriter()
            return .failed(String(describing: error))
        }
    }

    /// Brings the meaning vectors up to the store in the background (passes coalesce; one runs at a time).
    func requestEmbed() {
        guard !embedScheduled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        embedQueue.async {
            self.embedScheduled.store(false, ordering: .releasing)
            let start = ContinuousClock.now
            var lastLog = ContinuousClock.now
            do {
                let report = try self.library.embedPending(background: true) { done, total in
                    if ContinuousClock.now - lastLog > .seconds(10) {
                        lastLog = .now
                        self.log.info("embedding for meaning search", metadata: ["done": "\(done)", "of": "\(total)"])
                    }
                }
                if let report, report.embedded + report.deleted > 0 {
                    self.log.info("embedded for meaning search", metadata: [
                        "embedded": "\(report.embedded)", "deleted": "\(report.deleted)", "ms": "\(Self.ms(since: start))",
                    ])
                    if report.embedded >= Self.bigPass { Heap.releaseFreedMemory() }
                }
            } catch {
                self.log.error("embedding for meaning search failed; words still search", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Passes that apply at least this many changes hand freed memory back to the system afterwards.
    static let bigPass = 500

    static func ms(since start: ContinuousClock.Instant) -> String {
        let d = ContinuousClock.now - start
        let ms = Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
        return String(format: "%.1f", ms)
    }
}

