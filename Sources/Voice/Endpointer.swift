/// Decides, frame by frame, when someone has spoken and stopped: speech is a frame clearly louder than the room
/// (three times its quietest level lately, and above a floor), begun after 90 ms of it; it has ended after
/// `silenceSeconds` without speech. A steady hum or hiss raises the room's level with it, so it never counts as
/// speech; a recording without speech ends after `leadSeconds`.
public struct Endpointer: Sendable {
    /// What the recording is doing after a frame.
    public enum State: Equatable, Sendable {
        /// Nobody has spoken yet.
        case waiting
        /// Speech began and has not ended.
        case speaking
        /// Speech began and then stopped for long enough.
        case ended
        /// Nobody spoke within `leadSeconds`.
        case nothing
    }

    /// Frames of 30 ms.
    public static let frameSeconds = 0.03
    /// Below this level (root mean square, of 1) nothing is speech, however quiet the room.
    static let minimumLevel: Float = 0.006
    static let overRoom: Float = 3

    public let silenceSeconds: Double
    public let leadSeconds: Double
    private var room: Float?
    private var loudRun = 0
    private var quietRun = 0
    private var frames = 0
    public private(set) var state = State.waiting
    /// Seconds from the start to where speech began and ended (while speaking: the last speech frame).
    public private(set) var speechStart: Double?
    public private(set) var speechEnd: Double?
    /// Frames without speech since the last frame of it.
    public var quietFrames: Int { quietRun }

    public init(silenceSeconds: Double = 1.2, leadSeconds: Double = 5) {
        self.silenceSeconds = silenceSeconds
        self.leadSeconds = leadSeconds
    }

    /// Takes the next frame's level; returns the state after it.
    @discardableResult
    public mutating func take(level: Float) -> State {
        frames += 1
        let now = Double(frames) * Self.frameSeconds
        // The room's level follows quiet frames at once and loud ones slowly (a minute to double), so speech does
        // not become the room while a hum or fan does.
        if let r = room { room = level < r ? level : r + (level - r) * 0.002 } else { room = level }
        let loud = level > max(Self.minimumLevel, (room ?? 0) * Self.overRoom)
        if loud { loudRun += 1; quietRun = 0 } else { quietRun += 1; loudRun = 0 }
        switch state {
        case .waiting:
            if loudRun >= 3 {
                state = .speaking
                speechStart = now - 3 * Self.frameSeconds
                speechEnd = now
            } else if now >= leadSeconds {
                state = .nothing
            }
        case .speaking:
            if loud { speechEnd = now }
            if Double(quietRun) * Self.frameSeconds >= silenceSeconds { state = .ended }
        case .ended, .nothing:
            break
        }
        return state
    }

    /// Runs over a whole recording; the state at its end.
    public static func scan(_ audio: Audio, silenceSeconds: Double = 1.2, leadSeconds: Double = .infinity) -> Endpointer {
        var e = Endpointer(silenceSeconds: silenceSeconds, leadSeconds: leadSeconds)
        let n = Int(Double(audio.rate) * frameSeconds)
        var i = 0
        while i + n <= audio.samples.count {
            let s = e.take(level: audio.level(i..<i + n))
            if s == .ended || s == .nothing { break }
            i += n
        }
        return e
    }
}

extension Audio {
    /// The recording from just before its first speech to just after its last (a recogniser hears a short clip best;
    /// seconds of silence around a few words make it hear nothing). The whole of it when no speech stands out.
    public func trimmedToSpeech() -> Audio {
        let e = Endpointer.scan(self, silenceSeconds: .infinity)
        guard let start = e.speechStart, let end = e.speechEnd else { return self }
        return speech(from: start, to: end)
    }

    /// Sound kept before speech begins and after it ends: the recogniser wants the words' edges.
    public static let leadSeconds = 0.3
    public static let tailSeconds = 0.4

    /// The recording from `leadSeconds` before `start` to `tailSeconds` after `end` (seconds from its beginning), or
    /// as much of that as it holds; the whole of it when that is nothing.
    public func speech(from start: Double, to end: Double) -> Audio {
        let from = max(0, Int((start - Self.leadSeconds) * Double(rate)))
        let to = min(samples.count, Int((end + Self.tailSeconds) * Double(rate)))
        return from < to ? Audio(samples: Array(samples[from..<to]), rate: rate) : self
    }
}
