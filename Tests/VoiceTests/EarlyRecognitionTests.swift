import Foundation
import Synchronization
import Testing
@testable import Voice

/// Recognition begun in a pause: the sound it works on is exactly what the recording ends with when nobody speaks
/// again, and only the latest pause's run counts.
struct EarlyRecognitionTests {
    /// Frames of 30 ms: `seconds` of a tone (speech to the endpointer) or of silence.
    func frames(_ parts: [(speech: Bool, seconds: Double)]) -> [Audio] {
        let samples = parts.flatMap { part in
            part.speech ? tone(part.seconds, amplitude: 0.3).map(Float.init) : [Float](repeating: 0, count: Int(part.seconds * 16000))
        }
        let n = Int(Double(Audio.speechRate) * Endpointer.frameSeconds)
        return stride(from: 0, to: samples.count - n + 1, by: n).map { Audio(samples: Array(samples[$0..<$0 + n])) }
    }

    func record(_ parts: [(speech: Bool, seconds: Double)], silence: Double = 0.8) -> (speech: Audio, end: RecordingEnd?, pauses: [Audio]) {
        var pauses: [Audio] = []
        var recording = Recording(endpointer: Endpointer(silenceSeconds: silence, leadSeconds: 5), onPause: { pauses.append($0) })
        var end: RecordingEnd?
        for f in frames(parts) {
            end = recording.add(f)
            if end != nil { break }
        }
        return (recording.speech, end, pauses)
    }

    @Test func aRecordingEndedByItsPauseIsTheSoundThePauseGaveEarly() {
        let r = record([(false, 0.3), (true, 1.0), (false, 1.5)])
        #expect(r.end == .silence)
        #expect(r.pauses.count == 1)
        #expect(r.pauses.first == r.speech, "the early sound is not what the recording ended with")
        // The speech with its edges: 0.3 s before, 1 s of it (and the endpointer's 90 ms), 0.4 s after.
        #expect(abs(r.speech.seconds - 1.7) < 0.1, "\(r.speech.seconds) s")
    }

    @Test func speechAfterAPauseMakesTheLaterPauseTheOneThatCounts() {
        let r = record([(false, 0.3), (true, 0.6), (false, 0.5), (true, 0.6), (false, 1.5)])
        #expect(r.end == .silence)
        #expect(r.pauses.count == 2)
        #expect(r.pauses.first != r.speech)
        #expect(r.pauses.last == r.speech)
    }

    @Test func theKeyPressedInAPauseEndsWithThePausesSoundAndBeforeItWithLess() {
        // Stopped by the key 0.6 s into the pause: the tail is whole, the sound is the pause's.
        let late = record([(false, 0.3), (true, 1.0), (false, 0.6)])
        #expect(late.end == nil && late.pauses.count == 1 && late.pauses.first == late.speech)
        // Stopped 0.2 s into it: no early sound yet.
        let soon = record([(false, 0.3), (true, 1.0), (false, 0.2)])
        #expect(soon.end == nil && soon.pauses.isEmpty)
    }

    @Test func theEarlyRunIsUsedOnlyForTheSoundItRecognised() throws {
        let asked = Mutex<[Int]>([])
        let early = EarlyRecognition { audio in
            asked.withLock { $0.append(audio.samples.count) }
            return Heard(transcript: "\(audio.samples.count) samples", engine: "count", seconds: 0)
        }
        let a = Audio(samples: [Float](repeating: 0.1, count: 1600))
        let b = Audio(samples: [Float](repeating: 0.1, count: 3200))
        let c = Audio(samples: [Float](repeating: 0.1, count: 4800))
        early.start(a)
        let first = try early.transcribe(a)
        #expect(first.early && first.heard.transcript == "1600 samples")
        #expect(asked.withLock { $0 } == [1600])
        // A later pause supersedes an earlier one; the recording ends with the later's sound.
        early.start(a)
        early.start(b)
        let second = try early.transcribe(b)
        #expect(second.early && second.heard.transcript == "3200 samples")
        // Sound no pause gave (the key pressed before a pause was long enough): recognised then.
        early.start(a)
        let third = try early.transcribe(c)
        #expect(!third.early && third.heard.transcript == "4800 samples")
        #expect(asked.withLock { $0 }.last == 4800)
        #expect(asked.withLock { $0 }.filter { $0 == 3200 }.count == 1, "\(asked.withLock { $0 })")
    }
}
