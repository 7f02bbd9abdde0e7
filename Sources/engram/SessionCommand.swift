import ArgumentParser
import EngramClient
import EngramCore
import Foundation
import EngramApp
import Indexer
import Notifier

/// `engram session`: learning sessions, driven by the same state machine as notifications, D-Bus and links.
struct SessionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "session",
        abstract: "Start, pause, resume, stop or check a learning session.",
        discussion: """
            Without --id, pause, resume, stop and status act on the learning session; a capture (`engram capture`) \
            ends in its own process. When the daemon runs it shows the session's live notification; `--follow` \
            shows it when no daemon runs, and takes over if the daemon stops (and the daemon if `--follow` ends).
            """,
        subcommands: [Start.self, Pause.self, Resume.self, Stop.self, Next.self, Status.self],
        defaultSubcommand: Status.self)

    /// Prints a session in one line.
    static func describe(_ s: Session, now: Date) -> String {
        let secs = Int(saturating: s.elapsed(at: now))
        let time = String(format: "%d:%02d:%02d", secs / 3600, secs / 60 % 60, secs % 60)
        let progress = s.progressTotal > 0 ? " · \(s.progressDone)/\(s.progressTotal) topics" : (s.kind == .capture ? " · \(s.progressDone) captured" : "")
        return "\(Terminal.safe(s.title)) — \(s.state.rawValue) · \(time)\(progress)  " + Terminal.styled(s.id, .id)
    }

    struct Start: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "start", abstract: "Start studying a curriculum.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "The curriculum's id.") var curriculum: String
        @Option(help: "Start at this topic (default: the first not done).") var topic: String?
        @Flag(help: "Stay in the foreground with a live notification until the session ends.") var follow = false

        func run() throws {
            try Terminal.reporting {
                let library = try global.library()
                let out = try LinkHandler(library: library, source: "cli").perform(.sessionStart(curriculumID: curriculum, topicID: topic))
                print(out.sentence)
                if follow, let session = out.session {
                    try SessionCommand.follow(session, library: library)
                } else if !follow, !Live.switchedOff(library), let bus = Live.connect(quiet: true), !bus.daemonRuns {
                    Terminal.warn("no live notification without the daemon: `engram session resume --follow` shows one from this "
                                  + "terminal, or start the daemon (`systemctl --user enable --now engram.service`)")
                }
            }
        }
    }

    struct Pause: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "pause", abstract: "Pause the running learning session.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "The session's id (default: the active learning session).") var id: String?
        func run() throws { try SessionCommand.act(.pause, id: id, global) }
    }

    struct Resume: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "resume", abstract: "Resume the paused learning session.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "The session's id (default: the active learning session).") var id: String?
        @Flag(help: "Stay in the foreground with a live notification until the session ends.") var follow = false
        func run() throws {
            let session = try SessionCommand.act(.resume, id: id, global)
            if follow, let session { try Terminal.reporting { try SessionCommand.follow(session, library: try global.library()) } }
        }
    }

    struct Stop: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "stop", abstract: "Stop the learning session (stopping twice is harmless).")
        @OptionGroup var global: GlobalOptions
        @Option(help: "The session's id (default: the active learning session).") var id: String?
        func run() throws { try SessionCommand.act(.stop, id: id, global) }
    }

    struct Next: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "next", abstract: "Mark the current topic done and move to the next.")
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
        static let configuration = CommandConfiguration(commandName: "status", abstract: "Show the learning session, and any capture running.")
        @OptionGroup var global: GlobalOptions
        @Flag(help: "Print the learning session as JSON (null when none).") var json = false
        func run() throws {
            try Terminal.reporting {
                let library = try global.library()
                let store = library.store
                // A capture whose process died is ended here if nobody noticed yet.
                let interrupted = try store.endOrphanedCaptures()
                if !interrupted.isEmpty {
                    Live.reportInterrupted(interrupted, bus: Live.switchedOff(library) ? nil : Live.connect(quiet: true))
                }
                let learning = try store.activeSession(kind: .learning)
                if json {
                    if let learning { try Terminal.printJSON(learning) } else { print("null") }
                    return
                }
                print(learning.map { SessionCommand.describe($0, now: store.clock()) } ?? "No learning session is running.")
                for c in try store.activeCaptures() {
                    let pid = c.host.flatMap(ProcessIdentity.pid(of:)).map { ", pid \($0)" } ?? ""
                    print("Capturing: " + SessionCommand.describe(c, now: store.clock()) + " (ends in its own terminal\(pid))")
                }
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

    /// Stays in the foreground until the session ends (its buttons, another `engram session` command or a
    /// deep link end it), showing its live notification unless the daemon does; Ctrl-C leaves the session
    /// running (the daemon, if it runs, goes on showing it).
    static func follow(_ session: Session, library: Library) throws {
        guard !Live.switchedOff(library), let bus = Live.connect(),
              let live = Live.follow(session, library: library, bus: bus,
                                     options: LiveSession.Options(finalButtons: false), deferToDaemon: true) else { return }
        if Terminal.stdoutIsTTY {
            print(bus.daemonRuns
                  ? "The Engram daemon shows the live notification; Ctrl-C stops following and leaves the session running."
                  : "Live notification on; Ctrl-C leaves the session running.")
        }
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
