import EngramCore
import Foundation
import Synchronization

/// Why a recording stopped.
public enum RecordingEnd: String, Sendable, Codable {
    /// The push-to-talk key again (`engram listen --stop`, or a second `engram listen`).
    case key
    /// A pause after speech.
    case silence
    /// Nobody spoke.
    case nothing
    /// The time limit.
    case limit
}

/// A stream to or from the desktop's audio server (PipeWire through its PulseAudio interface, or PulseAudio) with
/// libpulse-simple, opened with dlopen: engram runs where neither is installed, and says so when asked to listen.
public final class AudioStream {
    public enum Direction: Int32, Sendable {
        case playback = 1
        case record = 2
    }

    private typealias New = @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>?,
                                            UnsafePointer<CChar>, UnsafeRawPointer, UnsafeRawPointer?, UnsafeRawPointer?,
                                            UnsafeMutablePointer<Int32>) -> OpaquePointer?
    private typealias Read = @convention(c) (OpaquePointer, UnsafeMutableRawPointer, Int, UnsafeMutablePointer<Int32>) -> Int32
    private typealias Write = @convention(c) (OpaquePointer, UnsafeRawPointer, Int, UnsafeMutablePointer<Int32>) -> Int32
    private typealias Drain = @convention(c) (OpaquePointer, UnsafeMutablePointer<Int32>) -> Int32
    private typealias Free = @convention(c) (OpaquePointer) -> Void
    private typealias StrError = @convention(c) (Int32) -> UnsafePointer<CChar>?

    private let library: UnsafeMutableRawPointer
    private let stream: OpaquePointer
    private let read: Read
    private let write: Write
    private let drain: Drain
    private let free: Free
    private let strerror: StrError

    /// Connects to the default source (or sink) at `rate` Hz mono, 16 bits; a recording is delivered every 30 ms.
    public init(_ direction: Direction, rate: Int = Audio.speechRate, appName: String = "Engram") throws {
        guard let lib = dlopen("libpulse-simple.so.0", RTLD_NOW | RTLD_LOCAL) else {
            throw VoiceUnavailable("no audio server library to record with: `apt install libpulse0` (PipeWire's pipewire-pulse or PulseAudio must run)")
        }
        func symbol<T>(_ name: String, _ type: T.Type) throws -> T {
            guard let p = dlsym(lib, name) else { throw VoiceUnavailable("libpulse-simple lacks \(name)") }
            return unsafeBitCast(p, to: type)
        }
        do {
            let new = try symbol("pa_simple_new", New.self)
            read = try symbol("pa_simple_read", Read.self)
            write = try symbol("pa_simple_write", Write.self)
            drain = try symbol("pa_simple_drain", Drain.self)
            free = try symbol("pa_simple_free", Free.self)
            strerror = try symbol("pa_strerror", StrError.self)
            // pa_sample_spec { format (PA_SAMPLE_S16LE = 3), rate, channels } and pa_buffer_attr { maxlength,
            // tlength, prebuf, minreq, fragsize }: fragments of one 30 ms frame, so a stop is heard at once.
            var spec = [UInt32](repeating: 0, count: 3)
            spec[0] = 3
            spec[1] = UInt32(rate)
            spec[2] = 1
            let frameBytes = UInt32(Double(rate) * Endpointer.frameSeconds) * 2
            let attr: [UInt32] = [UInt32.max, UInt32.max, UInt32.max, UInt32.max, direction == .record ? frameBytes : UInt32.max]
            var error: Int32 = 0
            let s = spec.withUnsafeBytes { specBytes in
                attr.withUnsafeBytes { attrBytes in
                    new(nil, appName, direction.rawValue, nil, direction == .record ? "Push to talk" : "Answer", specBytes.baseAddress!, nil, attrBytes.baseAddress!, &error)
                }
            }
            guard let s else {
                let why = strerror(error).map { String(cString: $0) } ?? "error \(error)"
                let what = direction == .record ? "record from" : "play through"
                throw VoiceUnavailable("cannot \(what) the audio server: \(why) (is PipeWire's pipewire-pulse or PulseAudio running?)")
            }
            stream = s
        } catch {
            dlclose(lib)
            throw error
        }
        library = lib
    }

    deinit {
        free(stream)
        dlclose(library)
    }

    /// Plays `audio` (at the rate the stream was opened with) and waits until it has been heard.
    public func play(_ audio: Audio) throws {
        let pcm = audio.pcm16()
        var error: Int32 = 0
        let status = pcm.withUnsafeBytes { write(stream, $0.baseAddress!, $0.count, &error) }
        guard status >= 0, drain(stream, &error) >= 0 else {
            throw VoiceUnavailable("playing stopped: " + (strerror(error).map { String(cString: $0) } ?? "error \(error)"))
        }
    }

    /// Records until `endpointer` says speech ended or never came, `stop()` returns true, or `maxSeconds` pass;
    /// `onFrame` sees each frame's level (for a meter). Returns the sound from just before speech began to just
    /// after it ended, and `onPause` gets that sound as it stands in each pause (`Recording`).
    public func record(maxSeconds: Double, endpointer: inout Endpointer, stop: () -> Bool,
                       onFrame: (Float) -> Void = { _ in }, onPause: ((Audio) -> Void)? = nil) throws -> (Audio, RecordingEnd) {
        let frame = Int(Double(Audio.speechRate) * Endpointer.frameSeconds)
        var bytes = [UInt8](repeating: 0, count: frame * 2)
        var recording = Recording(endpointer: endpointer, onPause: onPause)
        defer { endpointer = recording.endpointer }
        while recording.seconds < maxSeconds {
            if stop() { return (recording.speech, .key) }
            var error: Int32 = 0
            let status = bytes.withUnsafeMutableBytes { read(stream, $0.baseAddress!, $0.count, &error) }
            guard status >= 0 else {
                throw VoiceUnavailable("recording stopped: " + (strerror(error).map { String(cString: $0) } ?? "error \(error)"))
            }
            let chunk = Audio.fromPCM16(bytes, rate: Audio.speechRate)
            onFrame(chunk.level(0..<chunk.samples.count))
            if let end = recording.add(chunk) { return (recording.speech, end) }
        }
        return (recording.speech, .limit)
    }
}

/// A recording as its frames come: when it ends, and the speech in it. Each time a pause in the speech has lasted
/// `Audio.tailSeconds`, `onPause` gets the speech as it stands: if the recording ends before anyone speaks again
/// (by the pause going on, or by the key), `speech` is then exactly that sound (`EarlyRecognition` relies on it).
public struct Recording {
    public private(set) var endpointer: Endpointer
    private var samples: [Float] = []
    private let onPause: ((Audio) -> Void)?

    /// A pause this many frames long holds the speech's whole tail.
    static let pauseFrames = Int((Audio.tailSeconds / Endpointer.frameSeconds).rounded(.up))

    public init(endpointer: Endpointer, onPause: ((Audio) -> Void)? = nil) {
        self.endpointer = endpointer
        self.onPause = onPause
    }

    public var seconds: Double { Double(samples.count) / Double(Audio.speechRate) }

    /// Takes the next frame (`Endpointer.frameSeconds` of sound); returns why the recording ends, if it does now.
    public mutating func add(_ frame: Audio) -> RecordingEnd? {
        samples += frame.samples
        let state = endpointer.take(level: frame.level(0..<frame.samples.count))
        if let onPause, state == .speaking, endpointer.quietFrames == Self.pauseFrames { onPause(speech) }
        switch state {
        case .ended: return .silence
        case .nothing: return .nothing
        default: return nil
        }
    }

    /// The sound from just before speech began to just after it ended (`Audio.speech(from:to:)`); all of it when
    /// nobody spoke.
    public var speech: Audio {
        let audio = Audio(samples: samples)
        guard let start = endpointer.speechStart else { return audio }
        return audio.speech(from: start, to: endpointer.speechEnd ?? audio.seconds)
    }
}
