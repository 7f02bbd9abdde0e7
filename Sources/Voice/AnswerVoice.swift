import EngramCore
import Foundation
import Synchronization

/// Speaks Engram's answers, as `[voice] tts` says: through speech-dispatcher where the desktop has it (`spd-say`,
/// the person's own voice and rate), else espeak-ng inside the process (libespeak-ng, about 6 ms a sentence), or a
/// Wyoming voice such as Piper's at an address. The sentence is passed as data, never through a shell; control
/// characters are dropped.
public enum AnswerVoice {
    /// Speaks `sentence`; says which way in the result ("speech-dispatcher", "espeak-ng", "wyoming …", "none").
    @discardableResult
    public static func speak(_ sentence: String, settings: VoiceSettings, path: String? = ProcessInfo.processInfo.environment["PATH"]) throws -> String {
        let clean = String(sentence.unicodeScalars.filter { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) }.map(Character.init))
        guard !clean.isEmpty else { return "none" }
        switch settings.tts {
        case .none:
            return "none"
        case .wyoming(let host, let port):
            let client = WyomingClient(host: host, port: port)
            let audio = try client.synthesize(clean)
            try AudioStream(.playback, rate: audio.rate).play(audio)
            return "wyoming " + client.address
        case .speechDispatcher:
            try speechDispatcher(clean, path: path)
            return "speech-dispatcher"
        case .espeak:
            try ESpeak.say(clean)
            return "espeak-ng"
        case .auto:
            if Spawner.find("spd-say", path: path) != nil, (try? speechDispatcher(clean, path: path)) != nil { return "speech-dispatcher" }
            try ESpeak.say(clean)
            return "espeak-ng"
        }
    }

    static func speechDispatcher(_ sentence: String, path: String?) throws {
        guard let spd = Spawner.find("spd-say", path: path) else {
            throw VoiceUnavailable("speech-dispatcher is not installed (`apt install speech-dispatcher`), or set [voice] tts = \"espeak-ng\"")
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: spd)
        p.arguments = ["--wait", "--", sentence]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        // A speech service that never answers (one that cannot reach the audio server, or starts too slowly) must
        // not keep listening from ending: the answer is then said in process instead. A sentence is spoken at
        // about three words a second; beyond twice that and five seconds more, spd-say is given up on, and what it
        // handed over is cancelled, so a late voice never says it a second time over the other.
        let limit = 5.0 + 2.0 * Double(sentence.split(separator: " ").count) / 3.0
        let done = DispatchSemaphore(value: 0)
        p.terminationHandler = { _ in done.signal() }
        try p.run()
        if done.wait(timeout: .now() + limit) == .timedOut {
            p.terminate()
            let cancel = Process()
            cancel.executableURL = URL(fileURLWithPath: spd)
            cancel.arguments = ["--cancel"]
            cancel.standardOutput = FileHandle.nullDevice
            cancel.standardError = FileHandle.nullDevice
            try? cancel.run()  // not waited for: a service that hangs would hang this too
            throw VoiceUnavailable("speech-dispatcher did not answer within \(Int(limit)) s")
        }
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw VoiceUnavailable("spd-say failed (\(p.terminationStatus))") }
    }
}

/// libespeak-ng in the process, opened with dlopen: it writes the sound to Engram, which plays it through the
/// audio server.
public enum ESpeak {
    private static let collected = Mutex<[Int16]>([])

    /// The sound of `sentence` in espeak-ng's English voice.
    public static func synthesize(_ sentence: String) throws -> Audio {
        guard let lib = dlopen("libespeak-ng.so.1", RTLD_NOW | RTLD_LOCAL) else {
            throw VoiceUnavailable("espeak-ng is not installed (`apt install libespeak-ng1`), or set [voice] tts = \"speech-dispatcher\"")
        }
        defer { dlclose(lib) }
        func symbol<T>(_ name: String, _ type: T.Type) throws -> T {
            guard let p = dlsym(lib, name) else { throw VoiceUnavailable("libespeak-ng lacks \(name)") }
            return unsafeBitCast(p, to: type)
        }
        typealias Callback = @convention(c) (UnsafeMutablePointer<Int16>?, Int32, UnsafeMutableRawPointer?) -> Int32
        let initialize = try symbol("espeak_Initialize", (@convention(c) (Int32, Int32, UnsafePointer<CChar>?, Int32) -> Int32).self)
        let setCallback = try symbol("espeak_SetSynthCallback", (@convention(c) (Callback) -> Void).self)
        let setVoice = try symbol("espeak_SetVoiceByName", (@convention(c) (UnsafePointer<CChar>) -> Int32).self)
        let synth = try symbol("espeak_Synth", (@convention(c) (UnsafeRawPointer, Int, UInt32, Int32, UInt32, UInt32,
                                                                UnsafeMutablePointer<UInt32>?, UnsafeMutableRawPointer?) -> Int32).self)
        let synchronize = try symbol("espeak_Synchronize", (@convention(c) () -> Int32).self)
        let terminate = try symbol("espeak_Terminate", (@convention(c) () -> Int32).self)
        // AUDIO_OUTPUT_SYNCHRONOUS (2): the sound comes to the callback, in this thread.
        let rate = initialize(2, 200, nil, 0)
        guard rate > 0 else { throw VoiceUnavailable("espeak-ng could not start (its data in /usr/lib/x86_64-linux-gnu/espeak-ng-data?)") }
        defer { _ = terminate() }
        setCallback { samples, count, _ in
            if let samples, count > 0 { ESpeak.collected.withLock { $0 += UnsafeBufferPointer(start: samples, count: Int(count)) } }
            return 0
        }
        _ = setVoice("en-us")
        collected.withLock { $0 = [] }
        let bytes = Array(sentence.utf8) + [0]
        // POS_CHARACTER (1), espeakCHARS_UTF8 (1).
        let status = bytes.withUnsafeBytes { synth($0.baseAddress!, $0.count, 0, 1, 0, 1, nil, nil) }
        _ = synchronize()
        guard status == 0 else { throw VoiceUnavailable("espeak-ng could not speak (error \(status))") }
        let pcm = collected.withLock { buffer in defer { buffer = [] }; return buffer }
        return Audio(samples: pcm.map { Float($0) / 32768 }, rate: Int(rate))
    }

    /// Says `sentence` through the audio server.
    public static func say(_ sentence: String) throws {
        let audio = try synthesize(sentence)
        try AudioStream(.playback, rate: audio.rate).play(audio)
    }
}
