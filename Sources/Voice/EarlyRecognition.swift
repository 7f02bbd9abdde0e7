import Foundation

/// Recognition begun during a pause, before the recording has ended. A recording ends after a pause of
/// `[voice] silence_seconds`; the audio recognised then is the speech with `Audio.tailSeconds` after it, which the
/// recording already holds once the pause is that long. Started at that moment, recognition runs while the pause
/// goes on, and when the person says nothing more its words are ready sooner by the rest of the pause. When they
/// go on speaking, the early run is wasted and a later pause starts another: only the latest counts.
///
/// Recognitions run one at a time, in order, on a queue of their own (a recogniser is not asked to run twice at
/// once); one overtaken by a later pause before it began is skipped.
public final class EarlyRecognition: @unchecked Sendable {
    private final class Run: @unchecked Sendable {
        let audio: Audio
        let done = DispatchSemaphore(value: 0)
        /// Written before `done` is signalled, read after it; nil when the run was skipped.
        var result: Result<Heard, Error>?

        init(_ audio: Audio) { self.audio = audio }
    }

    private let recognize: @Sendable (Audio) throws -> Heard
    private let queue = DispatchQueue(label: "org.engram.listen.recognition")
    private let lock = NSLock()
    private var latest: Run?

    /// `recognize` does the work (the recogniser's `transcribe`).
    public init(_ recognize: @escaping @Sendable (Audio) throws -> Heard) {
        self.recognize = recognize
    }

    /// Starts recognising `audio`: the recording as it would be cut if it ended now.
    public func start(_ audio: Audio) {
        let run = Run(audio)
        lock.withLock { latest = run }
        queue.async { [self] in
            if lock.withLock({ latest !== run }) {
                run.done.signal()
                return
            }
            run.result = Result { try recognize(run.audio) }
            run.done.signal()
        }
    }

    /// The words of `audio`: the early run's when it recognised exactly this audio (`early` true), otherwise
    /// recognised now, after any early run still going.
    public func transcribe(_ audio: Audio) throws -> (heard: Heard, early: Bool) {
        if let run = lock.withLock({ latest }), run.audio == audio {
            run.done.wait()
            if let result = run.result { return (try result.get(), true) }
        }
        lock.withLock { latest = nil }
        return (try queue.sync { try recognize(audio) }, false)
    }
}
