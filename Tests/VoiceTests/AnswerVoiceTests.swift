import EngramCore
import EngramTestSupport
import Foundation
import Testing
import Voice

/// Answers are said the one way [voice] tts names, for `engram listen`, `engram ask --speak` and shortcuts alike.
@Suite struct AnswerVoiceTests {
    /// The sentence reaches speech-dispatcher as one argument, shell characters and all, never through a shell.
    /// (A stand-in records what `spd-say` was given: the suite has no speech service or sound card; `make
    /// test-voice` hears the spoken answer through a real audio server.)
    @Test func speechDispatcherGetsTheSentenceAsOneArgument() throws {
        let dir = NSTemporaryDirectory() + "engram-speech-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try writeScript("#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\" >> \"\(dir)/said\"; done\n", to: dir + "/spd-say")
        var settings = VoiceSettings()
        try settings.read("tts", .string("speech-dispatcher"))
        let sentence = "Found 2 memories about $(touch \(dir)/pwned); rm -rf ~ `id`."
        #expect(try AnswerVoice.speak(sentence + "\u{1B}[31m", settings: settings, path: dir) == "speech-dispatcher")
        #expect(try String(contentsOfFile: dir + "/said", encoding: .utf8) == "--wait\n--\n\(sentence)[31m\n", "control characters are dropped")
        #expect(!FileManager.default.fileExists(atPath: dir + "/pwned"))
        #expect(throws: (any Error).self) { try AnswerVoice.speak("hi", settings: settings, path: dir + "/empty") }
        try settings.read("tts", .string("none"))
        #expect(try AnswerVoice.speak("hi", settings: settings, path: dir) == "none")
    }
}
