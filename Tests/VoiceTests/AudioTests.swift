import EngramCore
import Foundation
import Testing
@testable import Voice

/// A WAV file's bytes: `channels` interleaved, `bits` per sample (PCM), at `rate`.
func wavBytes(_ frames: [[Double]], rate: Int, bits: Int = 16, float: Bool = false) -> [UInt8] {
    let channels = frames.first?.count ?? 1
    var data: [UInt8] = []
    for f in frames {
        for v in f {
            switch (float, bits) {
            case (true, _): withUnsafeBytes(of: Float(v).bitPattern.littleEndian) { data += $0 }
            case (_, 8): data.append(UInt8(max(0, min(255, (v * 128 + 128).rounded()))))
            default: withUnsafeBytes(of: Int16(max(-32768, min(32767, (v * 32768).rounded()))).littleEndian) { data += $0 }
            }
        }
    }
    var out: [UInt8] = []
    func u32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { out += $0 } }
    func u16(_ v: Int) { withUnsafeBytes(of: UInt16(v).littleEndian) { out += $0 } }
    out += Array("RIFF".utf8); u32(36 + data.count); out += Array("WAVE".utf8)
    out += Array("fmt ".utf8); u32(16); u16(float ? 3 : 1); u16(channels); u32(rate); u32(rate * channels * bits / 8); u16(channels * bits / 8); u16(bits)
    out += Array("data".utf8); u32(data.count); out += data
    return out
}

func tone(_ seconds: Double, amplitude: Double, hertz: Double = 220, rate: Int = 16000) -> [Double] {
    (0..<Int(seconds * Double(rate))).map { amplitude * sin(2 * .pi * hertz * Double($0) / Double(rate)) }
}

struct AudioTests {
    @Test func aStereoRecordingAtAnyRateIsReadAsMonoSpeech() throws {
        // Left and right hold opposite halves of a tone: mixed down, the tone's average.
        let frames = tone(0.5, amplitude: 0.5, rate: 8000).map { [$0, $0 * 0.5] }
        let audio = try Audio.decode(wav: wavBytes(frames, rate: 8000), name: "t.wav")
        #expect(audio.rate == 8000)
        #expect(audio.samples.count == 4000)
        #expect(abs(audio.samples[100] - Float(frames[100][0] * 0.75)) < 0.001)
        let speech = audio.resampled(to: 16000)
        #expect(speech.samples.count == 8000)
        #expect(abs(speech.seconds - 0.5) < 0.001)
    }

    @Test func eightBitAndFloatRecordingsReadTheSame() throws {
        let t = tone(0.1, amplitude: 0.5).map { [$0] }
        let pcm16 = try Audio.decode(wav: wavBytes(t, rate: 16000), name: "a")
        let pcm8 = try Audio.decode(wav: wavBytes(t, rate: 16000, bits: 8), name: "b")
        let float = try Audio.decode(wav: wavBytes(t, rate: 16000, bits: 32, float: true), name: "c")
        for i in stride(from: 0, to: t.count, by: 97) {
            #expect(abs(pcm16.samples[i] - float.samples[i]) < 0.0001)
            #expect(abs(pcm8.samples[i] - float.samples[i]) < 0.01)
        }
    }

    @Test func whatIsNotAWavFileIsRefusedSayingSo() {
        #expect(throws: EngramError.invalidInput("x.mp3 is not a WAV file (engram listen --from reads WAV; `sox IN OUT.wav` converts)")) {
            try Audio.decode(wav: Array("ID3 not a wave".utf8), name: "x.mp3")
        }
        var truncated = wavBytes(tone(0.1, amplitude: 0.1).map { [$0] }, rate: 16000)
        truncated.removeSubrange(36...)
        #expect(throws: EngramError.invalidInput("cut.wav holds no sound (a WAV file without its data)")) {
            try Audio.decode(wav: truncated, name: "cut.wav")
        }
    }

    @Test func aRecordingWrittenWithKeepReadsBackTheSame() throws {
        let a = Audio(samples: tone(0.2, amplitude: 0.3).map(Float.init))
        let back = try Audio.decode(wav: [UInt8](a.wav()), name: "kept.wav")
        #expect(back.rate == 16000)
        #expect(back.samples.count == a.samples.count)
        #expect(zip(a.samples, back.samples).allSatisfy { abs($0 - $1) < 0.0001 })
    }
}

struct EndpointerTests {
    func levels(_ samples: [Double]) -> Audio { Audio(samples: samples.map(Float.init)) }
    func hiss(_ seconds: Double, _ amplitude: Double) -> [Double] {
        var g = SystemRandomNumberGenerator()
        return (0..<Int(seconds * 16000)).map { _ in Double.random(in: -amplitude...amplitude, using: &g) }
    }

    @Test func speechBetweenQuietEndsAfterThePause() {
        let e = Endpointer.scan(levels(hiss(0.6, 0.002) + tone(1.0, amplitude: 0.2) + hiss(2.0, 0.002)), silenceSeconds: 1.2)
        #expect(e.state == .ended)
        #expect(abs((e.speechStart ?? 0) - 0.6) < 0.1)
        #expect(abs((e.speechEnd ?? 0) - 1.6) < 0.1)
    }

    @Test func aRecordingIsCutToItsSpeech() {
        let a = levels(hiss(3, 0.002) + tone(0.5, amplitude: 0.2) + hiss(0.5, 0.002) + tone(0.5, amplitude: 0.2) + hiss(3, 0.002))
        let cut = a.trimmedToSpeech()
        #expect(abs(cut.seconds - (0.3 + 1.5 + 0.4)) < 0.1)
        let quiet = levels(hiss(2, 0.002))
        #expect(quiet.trimmedToSpeech() == quiet)
    }

    @Test func aShortPauseInsideASentenceDoesNotEndIt() {
        let e = Endpointer.scan(levels(hiss(0.3, 0.002) + tone(0.6, amplitude: 0.2) + hiss(0.5, 0.002) + tone(0.6, amplitude: 0.2)
                                       + hiss(0.3, 0.002)), silenceSeconds: 1.2)
        #expect(e.state == .speaking)
    }

    @Test func aHumOrAHissFromTheStartIsNotSpeech() {
        for room in [tone(6, amplitude: 0.05, hertz: 50), hiss(6, 0.3), hiss(6, 0.002)] {
            var e = Endpointer(silenceSeconds: 1.2, leadSeconds: 5)
            let audio = levels(room)
            var i = 0
            while i + 480 <= audio.samples.count, e.state == .waiting { e.take(level: audio.level(i..<i + 480)); i += 480 }
            #expect(e.state == .nothing)
        }
    }

    @Test func speechOverAHumIsHeard() {
        let hum = tone(4, amplitude: 0.03, hertz: 50)
        var mix = hum
        let voice = tone(1, amplitude: 0.25, hertz: 300)
        for i in 0..<voice.count { mix[16000 + i] += voice[i] }
        let e = Endpointer.scan(levels(mix), silenceSeconds: 1.2)
        #expect(e.state == .ended)
        #expect(abs((e.speechStart ?? 0) - 1.0) < 0.15)
    }
}

struct VoiceSettingsTests {
    @Test func aWyomingServerIsNamedByItsAddress() throws {
        let c = try EngramConfig.parse("[voice]\nstt = \"tcp://127.0.0.1:10300\"\ntts = \"none\"\nmax_seconds = 4\n")
        #expect(c.voice.stt == .wyoming(host: "127.0.0.1", port: 10300))
        #expect(c.voice.tts == VoiceSettings.Speech.none)
        #expect(c.voice.maxSeconds == 4)
        #expect(EngramConfig().voice.stt == .local)
    }

    @Test func aWrongSettingSaysWhatItMustBe() {
        #expect(throws: EngramError.config("config.toml: voice.stt must be \"local\" or \"tcp://HOST:PORT\", not \"http://x\"")) {
            try EngramConfig.parse("[voice]\nstt = \"http://x\"\n")
        }
        #expect(throws: EngramError.config("config.toml: voice.max_seconds must be a number of seconds from 1 to 120")) {
            try EngramConfig.parse("[voice]\nmax_seconds = 0\n")
        }
    }

    @Test func listeningCanBeTurnedOff() throws {
        #expect(try EngramConfig.parse("[privacy]\nvoice = false\n").disabledIntegrations == ["voice"])
    }
}
