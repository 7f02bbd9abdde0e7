import ArgumentParser
import EngramClient
import EngramCore
import Foundation
import EngramApp
import Indexer

/// `engram handoff`: continue here what another device is doing, or send this device's activity to a phone.
struct HandoffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "handoff",
        abstract: "Continue here a session or memory from your other devices.",
        discussion: """
            Each device publishes what it is doing (a learning session, the memory opened last) in its own file of \
            the sync folder; the others offer it for [sync] handoff_minutes (15 by default) as a notification \
            "Continue on this computer". Continuing a session pauses it on the other device as of that moment and \
            resumes it here with its time, counting no minute twice; the other device answers when it is online.
            """,
        subcommands: [HandoffListCommand.self, HandoffContinueCommand.self, HandoffSendCommand.self],
        defaultSubcommand: HandoffListCommand.self)

    /// "12 s", "4 min", "2 h".
    static func age(_ seconds: TimeInterval) -> String {
        seconds < 60 ? "\(Int(seconds)) s" : seconds < 3600 ? "\(Int(seconds / 60)) min" : "\(Int(seconds / 3600)) h"
    }

    /// Handoff for `library`, or an error that says how to turn it on.
    static func handoff(_ library: Library) throws -> Handoff {
        guard let handoff = library.handoff else {
            throw EngramError.config("handoff goes through the sync folder: set [sync] folder in \(library.paths.configDirectory)/config.toml (`engram sync setup`)")
        }
        return handoff
    }
}

/// `engram handoff list`: the other devices' recent activities.
struct HandoffListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List your other devices' recent activities.")
    @OptionGroup var global: GlobalOptions
    @Flag(help: "Print as JSON: the offers (device, kind, id, title, state, minutes, age in seconds, the continue link) and the pending claim.")
    var json = false

    /// One offer as `--json` prints it.
    struct OfferJSON: Encodable {
        var device: String
        var deviceName: String
        var kind: String
        var id: String
        var title: String
        var state: String?
        var minutes: Int?
        var ageSeconds: Int
        var link: String
    }

    /// What `--json` prints.
    struct ListJSON: Encodable {
        var offers: [OfferJSON]
        var waitingFor: String?
    }

    func run() throws {
        try Terminal.reporting {
            let library = try global.library()
            let handoff = try HandoffCommand.handoff(library)
            if json {
                let offers = try handoff.offers().map { o in
                    OfferJSON(device: o.activity.device, deviceName: o.activity.deviceName, kind: o.kind.rawValue, id: o.itemID,
                              title: o.kind == .session ? o.activity.session?.title ?? "" : o.activity.memory?.title ?? "",
                              state: o.kind == .session ? o.activity.session?.state : nil, minutes: o.kind == .session ? o.minutes : nil,
                              ageSeconds: Int(o.age), link: DeepLink.handoff(device: o.itemID).url)
                }
                try Terminal.printJSON(ListJSON(offers: offers, waitingFor: try handoff.pendingClaim()?.session))
                return
            }
            if let claim = try handoff.pendingClaim() {
                print("Waiting for device \(claim.origin) to hand over session \(claim.session) (asked \(HandoffCommand.age(library.store.clock().timeIntervalSince(claim.claimed))) ago).")
            }
            let offers = try handoff.offers()
            if offers.isEmpty {
                print("Nothing to continue: no other device published a recent activity.")
                return
            }
            for o in offers {
                let what = o.kind == .session ? "\(o.text) · \(o.activity.session?.state ?? "")" : "memory “\(o.text)”"
                print("\(Terminal.safe(o.activity.deviceName)): \(Terminal.safe(what)) · \(HandoffCommand.age(o.age)) ago  "
                      + Terminal.styled("engram handoff continue \(o.itemID)", .id))
            }
        }
    }
}

/// `engram handoff continue`: continue another device's session or memory here.
struct HandoffContinueCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "continue", abstract: "Continue another device's session or memory here.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "A device's name or id, or a session's or memory's id (default: the most recent activity).") var which: String?
    @Option(help: "Seconds to wait for the other device to hand the session over.") var wait: Int = 15

    func run() throws {
        try Terminal.reporting {
            let library = try global.library()
            let handoff = try HandoffCommand.handoff(library)
            let out = try LinkHandler(library: library, source: "cli").perform(.handoff(device: which))
            print(out.sentence)
            guard out.session == nil, out.memory == nil, try handoff.pendingClaim() != nil else { return }
            // Without a daemon here nobody else reads the folder: sync until the other device answers.
            let daemon = Live.switchedOff(library) ? false : Live.connect(quiet: true)?.daemonRuns ?? false
            let deadline = Date().addingTimeInterval(TimeInterval(max(0, wait)))
            while Date() < deadline {
                if !daemon, let root = library.config.syncFolder { _ = try? SyncFolder(store: library.store, root: root).syncNow() }
                switch try handoff.completeClaim() {
                case .resumed(let s):
                    print("Continuing here: " + SessionCommand.describe(s, now: library.store.clock()))
                    return
                case .dropped(let why):
                    throw EngramError.invalidInput("cannot continue: \(why)")
                case .none:
                    if let s = try library.store.activeSession(), s.state == .running {
                        print("Continuing here: " + SessionCommand.describe(s, now: library.store.clock()))
                    }
                    return
                case .waiting:
                    Thread.sleep(forTimeInterval: 0.3)
                }
            }
            print("Still waiting; the session continues here as soon as the other device hands it over (the daemon finishes the move).")
        }
    }
}

/// `engram handoff send`: push the link that continues this device's activity to a paired phone or computer.
struct HandoffSendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send the link to continue this activity to a device paired with KDE Connect or GSConnect.")
    @OptionGroup var global: GlobalOptions
    @Option(help: "The paired device's name or id (default: the only reachable one).") var device: String?
    @Option(help: "Send this engram:// link instead of the one continuing this device's activity.") var link: String?

    func run() throws {
        try Terminal.reporting {
            let url: String
            if let link {
                url = try DeepLink.parse(link).url
            } else {
                guard let own = try HandoffCommand.handoff(try global.library()).ownLink() else {
                    throw EngramError.notFound("nothing to send: no session runs and no memory was opened on this device")
                }
                url = own.url
            }
            let sharing: LinkSharing
            do { sharing = try LinkSharing() } catch {
                throw EngramError.io("no session bus: KDE Connect and GSConnect are reached through it")
            }
            let sent = try sharing.send(url, toDeviceNamed: device)
            print("Sent \(url) to \(Terminal.safe(sent.name)) through \(sent.via.rawValue).")
        }
    }
}
