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

        func run() throws {
            try Terminal.reporting {
                let library = try global.library()
                let out = try LinkHandler(library: library, source: "cli").perform(.sessionStart(curriculumID: curriculum, topicID: topic))
                print(out.sentence)
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
        func run() throws { try SessionCommand.act(.resume, id: id, global) }
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

    static func act(_ action: DeepLink.SessionAction, id: String?, _ global: GlobalOptions) throws {
        try Terminal.reporting {
            let library = try global.library()
            print(try LinkHandler(library: library, source: "cli").perform(.session(action: action, id: id)).sentence)
        }
    }
}
