import Foundation

/// A serial queue with one thread of its own, for work that changes its thread's state: the background embedder
/// lowers its thread's CPU priority and OpenMP thread count (both per thread on Linux), which on a Dispatch queue
/// would stay with a pooled worker thread that any other queue may borrow next (a new question's embedding ran
/// there at nice 19 on one OpenMP thread: 600 ms instead of 85). A raised nice cannot be lowered again without
/// privileges, so such work gets a thread nothing else uses.
final class WorkerThread: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []

    init(name: String, qualityOfService: QualityOfService) {
        let thread = Thread { [condition] in
            while true {
                condition.lock()
                while self.jobs.isEmpty { condition.wait() }
                let job = self.jobs.removeFirst()
                condition.unlock()
                job()
            }
        }
        thread.name = name
        thread.qualityOfService = qualityOfService
        thread.start()
    }

    /// Runs `job` on the thread after the jobs before it.
    func async(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }
}
