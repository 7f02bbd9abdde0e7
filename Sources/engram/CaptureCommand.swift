import ArgumentParser
import EngramClient
import EngramCore
import Foundation
import EngramApp
import Indexer
import Notifier

/// `engram capture`: a capture session — every line typed or piped becomes a memory, with a live notification.
struct CaptureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capture",
        abstract: "Capture a stream of memories, one per line, with a live notification.",
        discussion: """
            Reads standard input until it ends (Ctrl-D at a terminal), the notification's Done button is \
            pressed or Ctrl-C; every line read by then is captured. The capture belongs to this process: \
            `engram session pause|stop` act on learning sessions, and a capture whose process was killed \
            is ended as interrupted, with what it captured, by whoever notices first (the daemon, \
            `engram session status`, the next capture). The notification shows the count and the last \
            memory, then “processing” while the captures are indexed and linked, then “complete”; it goes \
            away after --dismiss-after seconds, its Open working until then. Without a notification server \
            the capture works the same, without the notification.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "The session's title.")
    var title = "Capture"

    @Option(help: "note, idea, task, quote or learning.")
    var type: MemoryType = .note

    @Option(name: [.customShort("t"), .long], help: "A tag for every memory (repeat for more).")
    var tag: [String] = []

    @Option(name: .shortAndLong, help: "The context the memories belong to.")
    var context: String?

    @Option(help: "Seconds the completed notification stays up.")
    var dismissAfter: Double = 60

    @Flag(help: "Do not show a live notification.")
    var noNotification = false

    func validate() throws {
        guard dismissAfter >= 0, dismissAfter <= 4 * 3600 else {
            throw ValidationError("--dismiss-after must be between 0 and 14400 seconds")
        }
    }

    func run() throws {
        try Terminal.reporting {
            let library = try global.library()
            var options = LiveSession.Options()
            options.captureDismissal = dismissAfter == 0 ? .immediate : .after(.milliseconds(Int64(dismissAfter * 1000)))
            options.finalButtons = dismissAfter > 0  // the helper that takes it down answers Open until then
            let bus = noNotification || Live.switchedOff(library) ? nil : Live.connect()
            let capture = try LiveCapture(store: library.store, title: title) { session in
                bus.flatMap { Live.follow(session, library: library, bus: $0, options: options) }
            }
            Live.reportInterrupted(capture.interrupted, bus: bus)
            if Terminal.stdinIsTTY {
                FileHandle.standardError.write(Data("Capturing: one memory per line; end with Ctrl-D.\n".utf8))
            }
            let (type, tags, context) = (self.type, self.tag, try self.context ?? library.store.captureContext())
            // Done and Ctrl-C stop the reading; the lines already read are still captured.
            let input = StandardInputLines.stream()
            capture.onEndRequest { input.stop() }
            let interrupts = Live.onInterrupt { capture.requestEnd() }
            let ended = try Live.wait { () async throws -> Session in
                let runner = capture.live.map { live in Task { await live.run() } }
                for await line in input.lines {
                    do {
                        try await capture.capture(line, type: type, tags: tags, context: context)
                    } catch {
                        Terminal.warn("skipped a line: \(error)")
                    }
                }
                if capture.endRequested, Terminal.stdinIsTTY {
                    Terminal.warn("capture ended; what you type now is not captured")
                }
                let ended = try await capture.finish { progress in Self.link(library, progress: progress) }
                await runner?.value
                if let live = capture.live { await Live.handOffDismissals(of: live) }
                return ended
            }
            withExtendedLifetime(interrupts) {}
            let n = ended.progressDone
            print("Captured \(n) memor\(n == 1 ? "y" : "ies")  " + Terminal.styled(ended.id, .id))
        }
    }

    /// Indexes and links the captures here, or has the daemon do it when it holds the index; whether they are linked now.
    static func link(_ library: Library, progress: @escaping @Sendable (Int, Int) -> Void) -> Bool {
        do {
            // When the daemon is the index writer, it links them now and this waits for it (never starting one).
            let outcome = try IndexClient().makeSearchable(library, progress: progress, daemonTimeout: .seconds(10), embedInline: false)
            if !outcome.isSearchable {
                Terminal.warn("the daemon is indexing; your memories are saved and will be linked in a moment")
            }
            return outcome.isSearchable
        } catch {
            Terminal.warn("saved, but indexing is delayed: \(error)")
            return false
        }
    }
}

/// Standard input as a stream of lines, read on a thread of its own so a blocked read never holds up the bus.
enum StandardInputLines {
    /// The lines, and `stop`, which ends the stream after the lines already read.
    static func stream() -> (lines: AsyncStream<String>, stop: @Sendable () -> Void) {
        let (lines, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .unbounded)
        let thread = Thread {
            while let line = readLine(strippingNewline: true) { continuation.yield(line) }
            continuation.finish()
        }
        thread.start()
        return (lines, { continuation.finish() })
    }
}

extension Terminal {
    /// Whether standard input is a terminal.
    static let stdinIsTTY = isatty(0) == 1
}
