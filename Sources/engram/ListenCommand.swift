import ArgumentParser
import EngramApp
import EngramClient
import EngramCore
import Foundation
import Indexer
import Intents
import Synchronization
import Voice

/// Set by SIGUSR1, which a second press of the push-to-talk key (`engram listen` again, or `engram listen --stop`)
/// sends to the listening process.
private let stopRequested = Atomic<Bool>(false)
/// Set while the microphone is read: an audio server that delivers no sound at all would otherwise keep
/// `engram listen` waiting for ever.
private let recordingNow = Atomic<Bool>(false)

/// `engram listen`: push-to-talk. Records from the audio server until the key is pressed again, the speaker pauses
/// or the time limit; recognises the words on this machine (or with the Wyoming server `[voice] stt` names);
/// understands and acts on them as `engram ask` does, and says the answer aloud.
struct ListenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listen",
        abstract: "Push to talk: say what you want, as you would type it to `engram ask`.",
        discussion: """
            Bind it to a key (`engram shortcut bind`): the first press starts listening, the second (or a pause \
            after you speak) stops. A change runs only when it is clearly what you said; otherwise Engram asks, and \
            you answer by voice ("yes", "the second one", "cancel"). Forget never runs by voice. No sound is kept \
            unless --keep names a file.
            """)

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Stop the listening that is under way (the second press of the key) and exit.") var stop = false
    @Option(name: .customLong("from"), help: ArgumentHelp("Recognise this WAV file instead of the microphone.", valueName: "file"))
    var file: String?
    @Option(name: .customLong("answer-from"), help: ArgumentHelp("With --from: the answer to a question, as a WAV file.", valueName: "file"))
    var answerFile: String?
    @Flag(name: .customLong("dry-run"), help: "Say what was heard and how it reads, running nothing.") var dryRun = false
    @Flag(help: "Print what was heard and done as JSON.") var json = false
    @Option(name: .customLong("max-seconds"), help: "The longest recording ([voice] max_seconds; 10).") var maxSeconds: Double?
    @Option(help: ArgumentHelp("Keep the recording in this WAV file.", valueName: "file")) var keep: String?
    @Flag(name: .customLong("no-speak"), help: "Do not say the answer aloud.") var quiet = false

    func validate() throws {
        if answerFile != nil && file == nil { throw ValidationError("--answer-from goes with --from") }
        if let m = maxSeconds, !(0.5...120).contains(m) { throw ValidationError("--max-seconds must be from 0.5 to 120") }
    }

    func run() throws {
        try Terminal.reporting {
            let library = try global.library()
            let settings = library.config.voice
            guard !library.config.disabledIntegrations.contains("voice") else {
                throw EngramError.invalidInput("listening is turned off ([privacy] voice = false in config.toml)")
            }
            if stop || file == nil, Listening.stop(library.paths) {
                // The second press: the listening under way stops and acts on what it heard.
                if !json { print("Stopped listening.") }
                return
            }
            if stop {
                if !json { print("Not listening.") }
                return
            }
            let recognizer = try Self.recognizer(library.config)
            // Recognition starts in a pause, while the person may still go on: when they do not, the words are ready
            // the moment the recording ends (Voice/EarlyRecognition.swift).
            nonisolated(unsafe) let recognize = recognizer
            let early = EarlyRecognition { try recognize().transcribe($0) }
            // The language's word list, read while the person speaks: a capture with a word outside it and the store is
            // read back before it is kept.
            let everyday = InBackground { HeardWords.systemWordList() }
            // A notification says that it listens and what it heard (when there is a session bus and they are on).
            // The daemon hears that push-to-talk started and ended (its Listening property).
            let bus = file == nil ? Live.connect(quiet: true) : nil
            let notices = Notices(bus: Live.switchedOff(library) ? nil : bus)
            defer { notices.flush() }
            func notice(_ summary: String, _ body: String = "") { notices.post(summary, body) }
            let clock = ContinuousClock()
            let audio: Audio
            var stopped = RecordingEnd.silence
            var speechEnd = clock.now
            if let file {
                audio = try Audio.read(wav: file).trimmedToSpeech()
            } else {
                let unmark = try Listening.mark(library.paths)
                bus?.listeningChanged()
                defer {
                    unmark()
                    bus?.listeningChanged()
                }
                signal(SIGUSR1) { _ in stopRequested.store(true, ordering: .relaxed) }
                let mic = try AudioStream(.record)
                notice("Listening…", "Press the key again, or pause, to stop.")
                if !json { FileHandle.standardError.write(Data("Listening… (press the key again, or pause, to stop)\n".utf8)) }
                var endpointer = Endpointer(silenceSeconds: settings.silenceSeconds, leadSeconds: min(settings.leadSeconds, maxSeconds ?? settings.maxSeconds))
                let limit = maxSeconds ?? settings.maxSeconds
                Self.watch(limit, then: unmark)
                (audio, stopped) = try mic.record(maxSeconds: limit, endpointer: &endpointer, stop: { stopRequested.load(ordering: .relaxed) },
                                                  onPause: TestHooks.current.lateRecognition ? nil : { early.start($0) })
                recordingNow.store(false, ordering: .relaxed)
                speechEnd = clock.now
            }
            if let keep { try Self.keep(audio, at: keep) }
            var heard = Heard(transcript: "", engine: "", seconds: 0)
            var heardEarly = false
            if stopped != .nothing { (heard, heardEarly) = try early.transcribe(audio) }
            if bus != nil { notice(heard.transcript.isEmpty ? "Heard nothing" : "Heard: " + heard.transcript) }
            let runner = IntentRunner(library: library, source: "voice")
            let words = HeardWords(matcher: try runner.matcher(), store: library.store,
                                   spelling: (try? IndexReader.open(at: library.paths.indexPath).spellingWords()) ?? [],
                                   everyday: everyday.value)
            let request = try runner.understand(heard: heard.transcript, words: words)
            var out: [String: Any] = [
                "transcript": heard.transcript, "engine": heard.engine, "audio_seconds": Self.rounded(audio.seconds),
                "recognition_seconds": Self.rounded(heard.seconds), "stop": stopped.rawValue, "reading": request.reading,
                "corrections": request.corrections.map { ["heard": $0.heard, "became": $0.became] },
            ]
            if let c = heard.confidence { out["confidence"] = Self.rounded(c) }
            if file == nil { out["recognised_in_pause"] = heardEarly }
            var sentence: String
            var spokenQuestion: Clarification?
            var toRun: IntentInvocation?
            switch request.outcome {
            case .run(let invocation, let confidence):
                out["understood"] = "run"
                out["intent"] = invocation.name.rawValue
                out["label"] = invocation.label
                out["id"] = invocation.commandID
                out["arguments"] = invocation.arguments
                out["score"] = Self.rounded(confidence)
                toRun = invocation
                sentence = invocation.label
            case .ask(let c):
                out["understood"] = "ask"
                out["question"] = c.question
                out["reason"] = c.reason.rawValue
                out["options"] = c.options.map { ["intent": $0.intent.rawValue, "label": $0.label, "id": $0.commandID, "arguments": $0.arguments] }
                if let m = c.missing { out["missing"] = m }
                sentence = c.question
                spokenQuestion = c
            case .none:
                out["understood"] = "none"
                sentence = heard.transcript.isEmpty ? "I heard nothing." : "I heard “\(heard.transcript)”, which is nothing I can do."
            }
            if dryRun {
                out["sentence"] = sentence
                try finish(out, sentence: sentence, speak: false, settings: settings)
                return
            }
            if let question = spokenQuestion {
                // Asked aloud and shown; the answer by voice within [voice] answer_seconds.
                notice(question.question, "Answer “yes”, “the second one” or “cancel”.")
                if !quiet { _ = try? AnswerVoice.speak(question.question, settings: settings) }
                if !json { print(Terminal.safe(question.question)) }
                let answerAudio: Audio?
                if let answerFile { answerAudio = try Audio.read(wav: answerFile).trimmedToSpeech() }
                else if file == nil, settings.answerSeconds > 0 {
                    var e = Endpointer(silenceSeconds: settings.silenceSeconds, leadSeconds: settings.answerSeconds)
                    Self.watch(settings.answerSeconds + 6, then: {})
                    let (a, why) = try AudioStream(.record).record(maxSeconds: settings.answerSeconds + 6, endpointer: &e, stop: { false })
                    recordingNow.store(false, ordering: .relaxed)
                    answerAudio = why == .nothing ? nil : a
                } else { answerAudio = nil }
                let answerText = try answerAudio.map { try recognizer().transcribe($0).transcript } ?? ""
                out["answer"] = answerText
                switch SpokenAnswer.read(answerText, for: question) {
                case .option(let n):
                    let o = question.options[n - 1]
                    toRun = IntentInvocation(o.intent, o.arguments)
                case .words(let w) where question.missing != nil && question.intent != nil:
                    var value = words.corrected(w).text
                    if question.missing == "curriculum", let known = try? KnownNames(store: library.store),
                       let id = known.curriculum(answering: value) { value = id }
                    toRun = IntentInvocation(question.intent!, question.given.merging([question.missing!: value]) { _, new in new })
                default:
                    toRun = nil
                }
                if toRun == nil {
                    sentence = "Nothing done."
                    out["sentence"] = sentence
                    try finish(out, sentence: sentence, speak: !quiet, settings: settings, notice: notice)
                    throw ExitCode(1)
                }
            }
            guard let invocation = toRun else {
                out["sentence"] = sentence
                try finish(out, sentence: sentence, speak: !quiet, settings: settings, notice: notice)
                throw ExitCode(1)
            }
            let result = try runner.run(invocation)
            out["ran"] = invocation.name.rawValue
            out["result"] = try JSONSerialization.jsonObject(with: Data(try result.json().utf8))
            sentence = result.sentence
            out["sentence"] = sentence
            out["seconds_to_result"] = Self.rounded((clock.now - speechEnd).inSeconds)
            if !json {
                for line in result.lines { print(Terminal.safe(line)) }
                for item in result.items.prefix(5) { print("  \(Terminal.styled(item.id, .id))  \(Terminal.safe(Format.truncate(item.title, 70)))") }
            }
            try finish(out, sentence: sentence, speak: !quiet, settings: settings, notice: notice)
        }
    }

    /// Ends the process with a clear error when the microphone gives no sound at all for `limit` seconds and 5 more
    /// (the recording reads the audio server, which then never answers); `cleanUp` runs first.
    static func watch(_ limit: Double, then cleanUp: @escaping @Sendable () -> Void) {
        recordingNow.store(true, ordering: .relaxed)
        DispatchQueue.global().asyncAfter(deadline: .now() + limit + 5) {
            guard recordingNow.load(ordering: .relaxed) else { return }
            FileHandle.standardError.write(Data("engram: the microphone gave no sound for \(Int(limit + 5)) s (muted, or taken by another program?)\n".utf8))
            cleanUp()
            Glibc.exit(EXIT_FAILURE)
        }
    }

    /// Prints the outcome (JSON, or the sentence) and says it.
    private func finish(_ out: [String: Any], sentence: String, speak: Bool, settings: VoiceSettings, notice: (String, String) -> Void = { _, _ in }) throws {
        notice(sentence, (out["transcript"] as? String).map { $0.isEmpty ? "" : "Heard: " + $0 } ?? "")
        if json {
            let data = try JSONSerialization.data(withJSONObject: out, options: [.sortedKeys, .withoutEscapingSlashes])
            Terminal.write(String(decoding: data, as: UTF8.self) + "\n")
        } else {
            if let t = out["transcript"] as? String, !t.isEmpty {
                let reading = out["reading"] as? String ?? t
                print(Terminal.styled("Heard: ", .dim) + Terminal.safe(t) + (reading != t ? Terminal.styled(" (read as “\(Terminal.safe(reading))”)", .dim) : ""))
            }
            print(Terminal.safe(sentence))
        }
        if speak {
            do { try AnswerVoice.speak(sentence, settings: settings) } catch { Terminal.warn("cannot say the answer: \(error)") }
        }
    }

    /// The recogniser `config` names. The local model starts loading at once on another thread, and runs once on a
    /// moment of silence (its first run prepares the engine), while the person speaks: after the recording only
    /// the recognition itself is left.
    static func recognizer(_ config: EngramConfig) throws -> () throws -> any SpeechToText {
        switch config.voice.stt {
        case .wyoming(let host, let port):
            let client = WyomingClient(host: host, port: port)
            return { client }
        case .local:
            guard let folder = LocalRecognizer.folder(for: config) else {
                throw EngramError.notFound("the speech recogniser is not installed (`make model`, or `make install`, installs it; [voice] model_dir says where it is)")
            }
            let threads = min(2, max(1, ProcessInfo.processInfo.activeProcessorCount))
            let box = Preloading()
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                do {
                    let r = try LocalRecognizer(folder: folder, threads: threads)
                    _ = try? r.transcribe(Audio(samples: [Float](repeating: 0, count: Audio.speechRate / 2)))
                    box.result = .success(r)
                } catch {
                    box.result = .failure(EngramError.notFound("\(error)"))
                }
                done.signal()
            }
            return {
                if box.result == nil { done.wait() }
                return try box.result!.get()
            }
        }
    }

    /// The notifications of one listening, shown in order on a thread of their own (each replaces the last), so a
    /// slow or absent notification server never delays what was asked.
    final class Notices: @unchecked Sendable {
        private let bus: SessionBus?
        private let queue = DispatchQueue(label: "org.engram.listen.notices")
        private var id: UInt32 = 0

        init(bus: SessionBus?) { self.bus = bus }

        func post(_ summary: String, _ body: String) {
            guard let bus else { return }
            queue.async {
                if let shown = bus.notice(summary, body: body, replacing: self.id) { self.id = shown }
            }
        }

        /// Waits (a second at most) for the last one to be shown before the process ends.
        func flush() {
            guard bus != nil else { return }
            let done = DispatchSemaphore(value: 0)
            queue.async { done.signal() }
            _ = done.wait(timeout: .now() + 1)
        }
    }

    /// The recogniser being loaded on another thread; read only after it signalled.
    final class Preloading: @unchecked Sendable {
        var result: Result<LocalRecognizer, Error>?
    }

    /// A value made on another thread while the person speaks; `value` waits for it (written once, before the
    /// semaphore is signalled, and read only after it).
    final class InBackground<T>: @unchecked Sendable {
        private var result: T?
        private let done = DispatchSemaphore(value: 0)

        init(_ make: @escaping @Sendable () -> T) {
            Thread.detachNewThread {
                self.result = make()
                self.done.signal()
            }
        }

        var value: T {
            done.wait()
            done.signal()
            return result!
        }
    }

    /// Writes the recording to `path` (0600), as asked with --keep.
    static func keep(_ audio: Audio, at path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: audio.wav(), attributes: [.posixPermissions: 0o600]) else {
            throw EngramError.io("cannot write \(path)")
        }
    }

    static func rounded(_ x: Double) -> Double { (x * 1000).rounded() / 1000 }
}
