import EngramCore
import Foundation

/// What a recogniser heard.
public struct Heard: Sendable, Equatable, Codable {
    /// The words, as the recogniser wrote them ("" for nothing).
    public var transcript: String
    /// The geometric mean of the words' token probabilities (0…1), where the engine gives one.
    public var confidence: Double?
    /// Which recogniser: "moonshine-base-en" or "wyoming tcp://HOST:PORT".
    public var engine: String
    /// Seconds it took to recognise.
    public var seconds: Double

    public init(transcript: String, confidence: Double? = nil, engine: String, seconds: Double) {
        self.transcript = transcript
        self.confidence = confidence
        self.engine = engine
        self.seconds = seconds
    }
}

/// Turns speech into words.
public protocol SpeechToText: AnyObject {
    func transcribe(_ audio: Audio) throws -> Heard
}

/// Why voice cannot run, said so a person can fix it.
public struct VoiceUnavailable: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Moonshine base-en on this machine, through sherpa-onnx and Engram's wrapper `libengram-stt.so` (opened with
/// dlopen, so engram runs without it; `make model` installs it). The model takes about 0.6 GB while loaded; it is
/// loaded when listening starts and let go with this object (`engram listen` is its own process, so the daemon
/// never holds it).
public final class LocalRecognizer: SpeechToText {
    public static let engineName = "moonshine-base-en"
    private let library: UnsafeMutableRawPointer
    private let handle: OpaquePointer
    private let transcribeFn: @convention(c) (OpaquePointer, UnsafePointer<Float>, Int32, Int32,
                                              UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, UnsafeMutablePointer<Float>) -> Int32
    private let freeText: @convention(c) (UnsafeMutablePointer<CChar>?) -> Void
    private let unload: @convention(c) (OpaquePointer) -> Void
    /// Seconds the model took to load.
    public let loadSeconds: Double

    /// The folder holding the recogniser: `[voice] model_dir`, else `$ENGRAM_SPEECH_DIR`, else the first installed
    /// `speech/` folder (see `InstalledFolders`); nil when none has it.
    public static func folder(for config: EngramConfig) -> String? {
        var candidates: [String] = []
        if let d = config.voice.modelDirectory { candidates.append(d) }
        else if let d = ProcessInfo.processInfo.environment["ENGRAM_SPEECH_DIR"], !d.isEmpty { candidates.append(d) }
        else { candidates = InstalledFolders.candidates(named: "speech") }
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/libengram-stt.so") }
    }

    /// Loads the recogniser in `folder` on `threads` threads.
    public init(folder: String, threads: Int = 1) throws {
        let clock = ContinuousClock()
        let start = clock.now
        for file in ["encoder_model.ort", "decoder_model_merged.ort", "tokens.txt"] where !FileManager.default.fileExists(atPath: folder + "/" + file) {
            throw VoiceUnavailable("the speech model in \(folder) lacks \(file); `make model` installs it again")
        }
        guard let lib = dlopen(folder + "/libengram-stt.so", RTLD_NOW | RTLD_LOCAL) else {
            throw VoiceUnavailable("the speech recogniser in \(folder) cannot be loaded: \(String(cString: dlerror()))")
        }
        func symbol<T>(_ name: String, _ type: T.Type) throws -> T {
            guard let p = dlsym(lib, name) else { throw VoiceUnavailable("\(folder)/libengram-stt.so lacks \(name)") }
            return unsafeBitCast(p, to: type)
        }
        do {
            let load = try symbol("engram_stt_load", (@convention(c) (UnsafePointer<CChar>, Int32) -> OpaquePointer?).self)
            transcribeFn = try symbol("engram_stt_transcribe", (@convention(c) (OpaquePointer, UnsafePointer<Float>, Int32, Int32,
                UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, UnsafeMutablePointer<Float>) -> Int32).self)
            freeText = try symbol("engram_stt_free_text", (@convention(c) (UnsafeMutablePointer<CChar>?) -> Void).self)
            unload = try symbol("engram_stt_unload", (@convention(c) (OpaquePointer) -> Void).self)
            guard let h = load(folder, Int32(threads)) else {
                throw VoiceUnavailable("the speech model in \(folder) could not be loaded (damaged? `make model` installs it again)")
            }
            handle = h
        } catch {
            dlclose(lib)
            throw error
        }
        library = lib
        loadSeconds = (clock.now - start).inSeconds
    }

    deinit {
        unload(handle)
        dlclose(library)
    }

    public func transcribe(_ audio: Audio) throws -> Heard {
        let clock = ContinuousClock()
        let start = clock.now
        let sound = audio.resampled(to: Audio.speechRate)
        // Moonshine needs a little sound to work on; less than a tenth of a second is nothing said.
        guard sound.samples.count >= Audio.speechRate / 10 else {
            return Heard(transcript: "", engine: Self.engineName, seconds: 0)
        }
        var text: UnsafeMutablePointer<CChar>?
        var confidence: Float = -1
        let status = sound.samples.withUnsafeBufferPointer {
            transcribeFn(handle, $0.baseAddress!, Int32($0.count), Int32(sound.rate), &text, &confidence)
        }
        defer { freeText(text) }
        guard status == 0, let text else { throw VoiceUnavailable("the speech recogniser failed on this sound") }
        return Heard(transcript: String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines),
                     confidence: confidence >= 0 ? Double(confidence) : nil,
                     engine: Self.engineName, seconds: (clock.now - start).inSeconds)
    }
}

extension Duration {
    /// The duration in seconds.
    public var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
