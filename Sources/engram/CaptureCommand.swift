import ArgumentParser
import EngramCore
import Foundation
import Indexer
import Notifier

/// `engram capture`: a capture session — every line typed or piped becomes a memory, with a live notification.
struct CaptureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capture",
        abstract: "Capture a stream of memories, one per line, with a live notification.",
        discussion: """
            Reads standard input until it ends (Ctrl-D at a terminal) or the notification's Done button is \
            pressed. The notification shows the count and the last memory, then “processing” while the \
            captures are indexed and linked, then “complete”; it goes away after --dismiss-after seconds. \
            Without a notification server the capture works the same, without the notification.
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
            let quiet = noNotification
            let capture = try LiveCapture(store: library.store, title: title) { session in
                quiet ? nil : Live.follow(session, library: library, options: options)
            }
            if Terminal.stdinIsTTY {
                FileHandle.standardError.write(Data("Capturing: one memory per line; end with Ctrl-D.\n".utf8))
            }
            let (type, tags, context) = (self.type, self.tag, try self.context ?? library.store.captureContext())
            let ended = try Live.wait { () async throws -> Session in
                let runner = capture.live.map { live in Task { await live.run() } }
                // Lines until input ends, or until the session is stopped (the Done button, `engram session stop`).
                await withTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await line in StandardInputLines.stream() {
                            guard capture.isCapturing() else { return }
                            do {
                                try await capture.capture(line, type: type, tags: tags, context: context)
                            } catch {
                                Terminal.warn("skipped a line: \(error)")
                            }
                        }
                    }
                    group.addTask {
                        while capture.isCapturing(), !Task.isCancelled { try? await Task.sleep(for: .milliseconds(300)) }
                    }
                    await group.next()
                    group.cancelAll()
                }
                let ended = try await capture.finish { progress in
                    do {
                        if case .busy = try library.applyPending(progress: progress) {
                            Terminal.warn("the daemon is indexing; your memories are saved and will be linked in a moment")
                        }
                    } catch {
                        Terminal.warn("saved, but indexing is delayed: \(error)")
                    }
                }
                await runner?.value
                if let live = capture.live { await Live.handOffDismissals(of: live) }
                return ended
            }
            let n = ended.progressDone
            print("\(ended.state == .stopped ? "Stopped" : "Captured") \(n) memor\(n == 1 ? "y" : "ies")  " + Terminal.styled(ended.id, .id))
        }
    }
}

/// Standard input as a stream of lines, read on a thread of its own so a blocked read never holds up the bus.
enum StandardInputLines {
    static func stream() -> AsyncStream<String> {
        AsyncStream { continuation in
            let thread = Thread {
                while let line = readLine(strippingNewline: true) { continuation.yield(line) }
                continuation.finish()
            }
            thread.start()
        }
    }
}

extension Terminal {
    /// Whether standard input is a terminal.
    static let stdinIsTTY = isatty(0) == 1
}
