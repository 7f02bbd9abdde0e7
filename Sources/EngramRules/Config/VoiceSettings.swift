/// `[voice]`: push-to-talk (`engram listen`): who recognises the words, who speaks the answers, when recording ends.
///
///     [voice]
///     stt = "local"              # Moonshine on this machine (the default); "tcp://HOST:PORT": a Wyoming speech server
///     tts = "auto"               # speech-dispatcher if running, else espeak-ng; "speech-dispatcher", "espeak-ng",
///                                # "none", or "tcp://HOST:PORT": a Wyoming voice (Piper)
///     max_seconds = 10           # the longest recording
///     silence_seconds = 0.8      # a pause this long after speech ends the recording
///     lead_seconds = 5           # how long listening waits for you to start speaking
///     answer_seconds = 6         # how long a spoken question waits for "yes", "the second one" or "cancel"
///     model_dir = "~/models/speech"   # where the speech model is (default: installed beside Engram)
///
/// Nothing leaves the machine unless `stt` or `tts` names a server; `[privacy] voice = false` turns listening off.
public struct VoiceSettings: ConfigSection {
    public static let sectionName = "voice"

    /// Where speech is recognised or spoken: on this machine, or by a Wyoming server at an address.
    public enum Engine: Equatable, Sendable {
        case local
        case wyoming(host: String, port: Int)
    }

    /// How answers are spoken.
    public enum Speech: Equatable, Sendable {
        case auto, speechDispatcher, espeak, none
        case wyoming(host: String, port: Int)
    }

    public var stt: Engine = .local
    public var tts: Speech = .auto
    public var maxSeconds = 10.0
    public var silenceSeconds = 0.8
    public var leadSeconds = 5.0
    public var answerSeconds = 6.0
    public var modelDirectory: String?

    public init() {}

    public mutating func read(_ key: String, _ value: ConfigValue) throws(ConfigProblem) {
        switch key {
        case "stt":
            guard let text = value.string else { throw Self.must(key, "be \"local\" or \"tcp://HOST:PORT\"") }
            if text == "local" { stt = .local; return }
            guard let (host, port) = Self.address(text) else { throw Self.must(key, "be \"local\" or \"tcp://HOST:PORT\", not \"\(text)\"") }
            stt = .wyoming(host: host, port: port)
        case "tts":
            let rule = "be \"auto\", \"speech-dispatcher\", \"espeak-ng\", \"none\" or \"tcp://HOST:PORT\""
            guard let text = value.string else { throw Self.must(key, rule) }
            switch text {
            case "auto": tts = .auto
            case "speech-dispatcher": tts = .speechDispatcher
            case "espeak-ng": tts = .espeak
            case "none": tts = .none
            default:
                guard let (host, port) = Self.address(text) else { throw Self.must(key, rule + ", not \"\(text)\"") }
                tts = .wyoming(host: host, port: port)
            }
        case "max_seconds":
            guard let n = value.number, (1...120).contains(n) else { throw Self.must(key, "be a number of seconds from 1 to 120") }
            maxSeconds = n
        case "silence_seconds":
            guard let n = value.number, (0.3...10).contains(n) else { throw Self.must(key, "be a number of seconds from 0.3 to 10") }
            silenceSeconds = n
        case "lead_seconds":
            guard let n = value.number, (1...60).contains(n) else { throw Self.must(key, "be a number of seconds from 1 to 60") }
            leadSeconds = n
        case "answer_seconds":
            guard let n = value.number, (0...60).contains(n) else { throw Self.must(key, "be a number of seconds from 0 to 60 (0: answers by voice are off)") }
            answerSeconds = n
        case "model_dir":
            guard let path = value.string.map(expandingHome), path.hasPrefix("/") else {
                throw Self.must(key, "be a folder's full path (or start with ~/)")
            }
            modelDirectory = path
        default:
            return
        }
    }

    /// "tcp://HOST:PORT" as host and port.
    public static func address(_ text: String) -> (String, Int)? {
        guard text.hasPrefix("tcp://") else { return nil }
        let rest = text.dropFirst(6)
        guard let colon = rest.lastIndex(of: ":"), let port = Int(rest[rest.index(after: colon)...]), (1...65535).contains(port) else { return nil }
        var host = Substring(rest[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || ".-:".contains($0) }) else { return nil }
        return (String(host), port)
    }
}
