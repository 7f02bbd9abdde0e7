import EngramCore
import Foundation

/// Finds and loads the meaning-search model once per process, or says why meaning search is off.
///
/// The model folder (`libe5.so` and the model file) is `[search] model_dir`, else `$ENGRAM_MODEL_DIR`, else the
/// first of: `model/` one to three folders above the running program (a build: `.build/model`, where `make`
/// installs it), `PREFIX/lib/engram/model` beside an installed `PREFIX/bin/engram`, `/usr/local/lib/engram/model`,
/// `/usr/lib/engram/model`.
public enum MeaningModel {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var loaded: [String: Result<any Embedder, MeaningUnavailable>] = [:]

    /// The embedder for this config, loaded on first use; or why meaning search is off.
    public static func embedder(for config: EngramConfig) -> Result<any Embedder, MeaningUnavailable> {
        guard config.semantic else { return .failure(MeaningUnavailable("meaning search is switched off ([search] semantic = false)")) }
        guard let folder = folder(for: config) else {
            return .failure(MeaningUnavailable(
                "the meaning-search model is not installed (`make model`, or `make install`, installs it; [search] model_dir says where it is)"))
        }
        let modelPath = folder + "/" + config.modelFile
        lock.lock()
        defer { lock.unlock() }
        if let known = loaded[modelPath] { return known }
        let result: Result<any Embedder, MeaningUnavailable>
        do {
            result = .success(try E5Embedder(enginePath: folder + "/libe5.so", modelPath: modelPath))
        } catch let error as MeaningUnavailable {
            result = .failure(error)
        } catch {
            result = .failure(MeaningUnavailable("\(error)"))
        }
        loaded[modelPath] = result
        return result
    }

    /// The first model folder that has the engine, or nil.
    public static func folder(for config: EngramConfig) -> String? {
        var candidates: [String] = []
        if let d = config.modelDirectory { candidates.append(d) }
        // $ENGRAM_MODEL_DIR decides alone when set (tests set it to "none" to search by words only).
        let fromEnvironment = ProcessInfo.processInfo.environment["ENGRAM_MODEL_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        if let d = fromEnvironment, config.modelDirectory == nil { candidates.append(d) }
        if config.modelDirectory == nil && fromEnvironment == nil { candidates += InstalledFolders.candidates(named: "model") }
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/libe5.so") }
    }
}
