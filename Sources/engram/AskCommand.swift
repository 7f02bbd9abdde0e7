import ArgumentParser
import EngramCore
import Foundation
import EngramApp
import Indexer
import Intents
import Voice

/// `engram ask "PHRASE"`: match a phrase to an intent and run it, now or later.
struct AskCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ask",
        abstract: "Say what you want: `engram ask \"what do I know about sourdough\"`.",
        discussion: "`engram ask --list` shows every intent and phrase. Run it later with --in 10m or --at 07:30.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "List every intent with its phrases.") var list = false
    @Flag(help: "With --list: print the Markdown table of intents (docs/intents-and-voice.md).") var markdown = false
    @Flag(name: .customLong("dbus-xml"), help: "With --list: print the intent methods of org.engram.Engram1 as interface XML.") var dbusXML = false
    @Flag(name: .customLong("desktop-actions"), help: "With --list: print the desktop entry's Actions from the catalog.") var desktopActions = false
    @Flag(name: .customLong("dry-run"), help: "Say which intent the phrase matches (and its arguments) without running it.") var dryRun = false
    @OptionGroup var pause: PauseOption
    @Flag(name: .customLong("run-due"), help: "Run the delayed intents that are due (the daemon does this each minute).") var runDue = false
    @Option(help: "Run this intent by name instead of matching a phrase.") var intent: String?
    @Option(name: .customLong("arg"), help: ArgumentHelp("An argument for --intent, as name=value (repeat).", valueName: "name=value")) var args: [String] = []
    @Option(name: .customLong("in"), help: ArgumentHelp("Run it after this long: 10m, 1h30m, 2d.", valueName: "duration")) var after: String?
    @Option(help: ArgumentHelp("Run it the next time the clock shows HH:MM.", valueName: "time")) var at: String?
    @Option(help: ArgumentHelp("With --in/--at: alert again this often until acknowledged.", valueName: "duration")) var realert: String?
    @Flag(help: "Say the result sentence aloud, as [voice] tts says (speech-dispatcher, else espeak-ng).") var speak = false
    @Flag(help: "Print the result as JSON.") var json = false
    @Argument(help: "The phrase.") var phrase: [String] = []

    func validate() throws {
        if after != nil && at != nil { throw ValidationError("use --in or --at, not both") }
        if !list && !runDue && intent == nil && phrase.isEmpty { throw ValidationError("say something: engram ask \"daily review\" (or --list)") }
    }

    func run() throws {
        defer { pause.waitIfAsked() }
        if list {
            if markdown { Terminal.write(IntentCatalog.markdownTable()); return }
            if dbusXML { Terminal.write(IntentCatalog.dbusMethodsXML); return }
            if desktopActions { Terminal.write(IntentCatalog.desktopActions()); return }
            for d in IntentCatalog.all {
                print("\(Terminal.styled(d.name.rawValue, .bold)) — \(d.summary)")
                for p in d.phrases { print("    \(p.template)") }
            }
            return
        }
        try Terminal.reporting {
            let library = try global.library()
            let runner = IntentRunner(library: library, source: "cli")
            _ = try? ContextControl(store: library.store).sync()
            if runDue {
                let ran = try DelayedIntentRunner(runner: runner).runDue(now: library.store.clock())
                if ran.isEmpty { print("Nothing is due.") }
                for r in ran { print(r.sentence) }
                return
            }
            let invocation: IntentInvocation
            var meaning: IntentMeaning.Match?
            let said = phrase.joined(separator: " ")
            if let intent {
                guard let def = IntentCatalog.definition(named: intent) else {
                    throw EngramError.invalidInput("no intent called \(intent); `engram ask --list` shows them")
                }
                var a: [String: String] = [:]
                for kv in args {
                    guard let eq = kv.firstIndex(of: "=") else { throw EngramError.invalidInput("--arg takes name=value, not \(kv)") }
                    a[String(kv[..<eq])] = String(kv[kv.index(after: eq)...])
                }
                invocation = IntentInvocation(def.name, a)
            } else {
                (invocation, meaning) = try match(said, runner: runner)
            }
            if dryRun {
                _ = try invocation.resolved()
                if json {
                    var out = ["intent": invocation.name.rawValue, "label": invocation.label, "id": invocation.commandID]
                    if let meaning {
                        out["by"] = "meaning"
                        out["score"] = String(format: "%.3f", meaning.score)
                        out["phrase"] = meaning.template
                    }
                    try Terminal.printJSON(out)
                } else {
                    print(Terminal.safe(invocation.label))
                    if let meaning {
                        print(String(format: "  by meaning: similarity %.3f to “%@” (at least %.2f is needed)",
                                     meaning.score, Terminal.safe(meaning.template), IntentMeaning.threshold))
                    }
                }
                return
            }
            if after != nil || at != nil {
                let now = library.store.clock()
                let due = try after.map { try When.after($0, from: now) } ?? When.at(at!, from: now)
                let every = try realert.map { try When.after($0, from: now).timeIntervalSince(now) }
                let d = try DelayedIntentRunner(runner: runner).schedule(invocation, phrase: said.isEmpty ? nil : said, due: due, realert: every)
                let sentence = "I'll do \(IntentCatalog.definition(invocation.name).title.lowercased()) at \(Format.dateTime(due))."
                if json { try Terminal.printJSON(["id": d.id, "due": ISODate.format(due), "sentence": sentence]) } else { print(sentence) }
                if speak { try AnswerVoice.speak(sentence, settings: library.config.voice) }
                return
            }
            let result = try runner.run(invocation)
            if json {
                Terminal.write(try result.json() + "\n")
            } else {
                print(Terminal.safe(result.sentence))
                for line in result.lines { print(Terminal.safe(line)) }
                for item in result.items where result.intent != .showConnections {
                    print("  \(Terminal.styled(item.id, .id))  \(Terminal.safe(Format.truncate(item.title, 70)))" + (item.detail.map { "  " + Terminal.styled(Terminal.safe(Format.truncate($0, 40)), .dim) } ?? ""))
                }
            }
            if speak { try AnswerVoice.speak(result.sentence, settings: library.config.voice) }
        }
    }

    /// Matches a phrase, turning "no match" into a message with the closest intent and exit status 1. When Engram is
    /// not sure (a state-changing reading not clear enough, a capture with nothing to capture), it asks: at a terminal
    /// a prompt ("Pause the session? [y/N]"), elsewhere the question and the commands that would answer it, exit 1,
    /// nothing run.
    func match(_ said: String, runner: IntentRunner) throws -> (IntentInvocation, IntentMeaning.Match?) {
        do {
            return try runner.resolve(said)
        } catch IntentError.unclear(let c) {
            if dryRun || !Terminal.isInteractive {
                if json {
                    Terminal.write(try IntentResult(clarifying: c).json() + "\n")
                } else {
                    print(Terminal.safe(c.question))
                    for o in c.options {
                        let args = o.arguments.sorted { $0.key < $1.key }.map { " --arg \(Terminal.shellQuoted("\($0.key)=\($0.value)"))" }.joined()
                        print("  \(Terminal.safe(o.label)): engram ask --intent \(o.intent.rawValue)\(Terminal.safe(args))")
                    }
                }
                throw ExitCode(1)
            }
            return (try Self.prompt(c), nil)
        } catch let e as IntentError {
            Terminal.warn(e.description)
            throw ExitCode(1)
        }
    }

    /// Asks at the terminal; the answer is what runs (nothing, on Enter or no).
    static func prompt(_ c: Clarification) throws -> IntentInvocation {
        if let missing = c.missing, let name = c.intent {
            Terminal.write(c.question + " ")
            guard let answer = readLine()?.trimmingCharacters(in: .whitespaces), !answer.isEmpty else { throw ExitCode(1) }
            return IntentInvocation(name, c.given.merging([missing: answer]) { _, new in new })
        }
        if c.options.count == 1 {
            Terminal.write(c.question + " [y/N] ")
            guard let answer = readLine(), answer.lowercased().hasPrefix("y") else { print("Nothing done."); throw ExitCode(1) }
            return IntentInvocation(c.options[0].intent, c.options[0].arguments)
        }
        print(c.question)
        for (i, o) in c.options.enumerated() { print("  \(i + 1)) \(Terminal.safe(o.label))") }
        Terminal.write("Which one? [1-\(c.options.count), Enter for none] ")
        guard let answer = readLine(), let n = Int(answer.trimmingCharacters(in: .whitespaces)), (1...c.options.count).contains(n) else {
            print("Nothing done.")
            throw ExitCode(1)
        }
        return IntentInvocation(c.options[n - 1].intent, c.options[n - 1].arguments)
    }
}
