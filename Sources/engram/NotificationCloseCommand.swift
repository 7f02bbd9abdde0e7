import ArgumentParser
import EngramClient
import EngramCore
import Foundation
import Notifier

/// `engram notification-close` (hidden): the detached timer that takes a finished session's notification down.
struct NotificationCloseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notification-close",
        abstract: "Close a notification after a delay (started by capture; not for direct use).",
        shouldDisplay: false)

    @Option(help: "The notification id.") var id: UInt32
    @Option(help: "Seconds to wait.") var after: Double = 0
    @Option(help: "The unique bus name of the server that showed it.") var server: String?
    @Option(help: "The engram:// link a click or Open on it opens meanwhile.") var open: String?

    func run() throws {
        let handOff = NotificationHandOff(id: id, serverOwner: server)
        let delay = Duration.milliseconds(Int64(max(0, min(after, 4 * 3600)) * 1000))
        // Only an Engram link is ever opened (parsed strictly, as every front end does).
        let link = try open.map { try DeepLink.parse($0).url }
        guard let bus = try? SessionBus() else { return }
        try Live.wait { await bus.closeNotification(handOff, after: delay, openLink: link) }
        bus.close()
    }
}
