import Foundation

/// A serial queue with one thread of its own, for work that changes or depends on its thread's state.
///
/// The daemon's background embedder lowers its thread's CPU priority and OpenMP thread count (both per thread on
/// Linux), which on a Dispatch queue would stay with a pooled worker thread that any other queue may borrow next (a
/// new question's embedding ran there at nice 19 on one OpenMP thread: 600 ms instead of 85). A raised nice cannot be
/// lowered again without privileges, so such work gets a thread nothing else uses. The meaning engine runs its
/// passes on every core from one such thread (`E5Embedder`).
public final class WorkerThread: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var thread: Thread?

    public init(name: String, qualityOfService: QualityOfService) {
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
        self.thread = thread
        thread.start()
    }

    /// Runs `job` on the thread after the jobs before it.
    public func async(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs `body` on the thread after the jobs before it, and waits for it (on the thread itself: at once).
    public func sync<T>(_ body: () throws -> T) throws -> T {
        if Thread.current == thread { return try body() }
        return try withoutActuallyEscaping(body) { body in
            let call = Call(body)
            async { call.run() }
            return try call.wait()
        }
    }

    /// One `sync` call: the body is dropped as soon as it has run, before the caller is woken (the body must not
    /// outlive `sync`, and the job holding this call may live on a little in the thread's loop).
    private final class Call<T>: @unchecked Sendable {
        private var body: (() throws -> T)?
        private var result: Result<T, any Error>?
        private let done = DispatchSemaphore(value: 0)

        init(_ body: @escaping () throws -> T) { self.body = body }

        func run() {
            result = Result { try body!() }
            body = nil
            done.signal()
        }

        func wait() throws -> T {
            done.wait()
            return try result!.get()
        }
    }
}
