import ArgumentParser
import EngramCore
import Foundation
import Indexer

/// `engram session`: learning sessions, driven by the same state machine as notifications, D-Bus and links.
struct SessionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "session",
        abstract: "Start, pause, resume, stop or check a learning session.",
        subcommands: [Start.self, Pause.self, Resume.self, Stop.self, Next.self, Status.self],
        defaultSubcommand: Status.self)

    /// Prints a session in one line.
    static func describe(_ s: Session, now: Date) -> String {
        let secs = Int(s.elapsed(at: now))
        let time = String(format: "%d:%02d:%02d", secs / 3600, secs / 60 % 60, secs % 60)
        let progress = s.progressTotal > 0 ? " · \(s.progressDone)/\(s.progressTotal) topics" : (s.kind == .capture ? " · \(s.progressDone) captured" : "")
        return "\(Terminal.safe(s.title)) — \(s.state.rawValue) · \(time)\(progress)  " + Terminal.styled(s.id, .id)
    }

    struct Start: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Start studying a curriculum.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "The curriculum's id.") var curriculum: String
        @Option(help: "Start at this topic (default: the first not done).") var topic: String?
        @Flag(help: "Stay in the foreground with a live notification until the session ends.") var follow = false

        func run() throws {
            try Terminal.reporting {
                let library = try global.library()
                let out = try LinkHandler(library: library, source: "cli").perform(.sessionStart(curriculumID: curriculum, topicID: topic))
                print(out.sentence)
                if follow, let session = out.session { try SessionCommand.follow(session, library: library) }
            }
        }
    }

    struct Pause: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Pause the running session.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "The session's id (default: the active one).") var id: String?
        func run() throws { try SessionCommand.act(.pause, id: id, global) }
    }

    struct Resume: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Resume a paused session.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "The session's id (default: the active one).") var id: String?
        @Flag(help: "Stay in the foreground with a live notification until the session ends.") var follow = false
        func run() throws {
            let session = try SessionCommand.act(.resume, id: id, global)
            if follow, let session { try Terminal.reporting { try SessionCommand.follow(session, library: try global.library()) } }
        }
    }

    struct Stop: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop the session (stopping twice is harmless).")
        @OptionGroup var global: GlobalOptions
        @Option(help: "The session's id (default: the active one).") var id: String?
        func run() throws { try SessionCommand.act(.stop, id: id, global) }
    }

    struct Next: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Mark the current topic done and move to the next.")
        @OptionGroup var global: GlobalOptions
        func run() throws {
            try Terminal.reporting {
                let library = try global.library()
                let s = try library.store.completeCurrentTopic()
                print(s.state == .completed ? "Curriculum complete: \(s.progressDone)/\(s.progressTotal) topics." : SessionCommand.describe(s, now: library.store.clock()))
            }
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the active session.")
        @OptionGroup var global: GlobalOptions
        @Flag(help: "Print as JSON.") var json = false
        func run() throws {
            try Terminal.reporting {
                let library = try global.library()
                guard let s = try library.store.activeSession() else {
                    if json { print("null") } else { print("No session is running.") }
                    return
                }
                if json { try Terminal.printJSON(s) } else { print(SessionCommand.describe(s, now: library.store.clock())) }
            }
        }
    }

    @discardableResult
    static func act(_ action: DeepLink.SessionAction, id: String?, _ global: GlobalOptions) throws -> Session? {
        try Terminal.reporting {
            let library = try global.library()
            let outcome = try LinkHandler(library: library, source: "cli").perform(.session(action: action, id: id))
            print(outcome.sentence)
            return outcome.session
        }
    }

    /// Keeps the session's live notification going until the session ends (its buttons, another
    /// `engram session` command or a deep link end it); Ctrl-C leaves the session running and takes the
    /// notification down.
    static func follow(_ session: Session, library: Library) throws {
        guard let live = Live.follow(session, library: library) else { return }
        if Terminal.stdoutIsTTY { print("Live notification on; Ctrl-C leaves the session running.") }
        let task = Task { await live.run() }
        let sources = Live.onInterrupt { task.cancel() }
        try Live.wait { await task.value }
        withExtendedLifetime(sources) {}
        guard let now = try library.store.session(id: session.id) else { return }
        if now.isActive {
            print("Left \(Terminal.safe(now.title)) \(now.state.rawValue); `engram session stop` ends it.")
        } else {
            print(describe(now, now: library.store.clock()))
        }
    }
}
