import DBus
import EngramCore
import Foundation
import Logging
import Synchronization

/// Opens Engram's window (`engram-app`) on a link: the window already open is asked over D-Bus
/// (`org.freedesktop.Application.Open` on `org.engram.Engram.App`, which every GApplication serves), else the app is
/// started with the link. The click's X server time or activation token goes with it (platform data for the open
/// window, the environment for a new one), so the compositor lets the window come forward.
///
/// A flood of clicks leaves one window: while a started app has not yet appeared on the bus, further links are
/// held, and the newest is handed to it once it has; no second process is started.
final class AppLauncher: @unchecked Sendable {
    static let busName = EngramBus.windowName
    static let objectPath: DBusObjectPath = "/org/engram/Engram/App"
    /// How long a started app may take to appear on the bus before another start is allowed.
    static let startGrace: Duration = .seconds(10)

    /// The `engram-app` executable.
    let executable: String
    let dataDirectory: String
    let log: Logger
    private let bus = Mutex<DBusConnection?>(nil)
    private struct Starting { var since: ContinuousClock.Instant; var held: (String, String?, String?)? }
    private let starting = Mutex<Starting?>(nil)

    init(executable: String, dataDirectory: String, log: Logger) {
        self.executable = executable
        self.dataDirectory = dataDirectory
        self.log = log
    }

    /// `engram-app` beside the `engram` that runs the daemon, else on `$PATH`; nil when not installed.
    static func find(besides engram: String) -> String? {
        let sibling = (engram as NSString).deletingLastPathComponent + "/engram-app"
        if FileManager.default.isExecutableFile(atPath: sibling) { return sibling }
        return TerminalLauncher.resolve("engram-app")
    }

    func attach(_ connection: DBusConnection) {
        bus.withLock { $0 = connection }
    }

    /// Opens the window on `url`; false when it could not (the caller falls back to the terminal).
    @discardableResult
    func open(_ url: String, timestamp: UInt32 = 0, activationToken: String? = nil) -> Bool {
        let startupID = activationToken ?? StartupEnvironment.startupID(program: "engram-app", timestamp: timestamp)
        if tell(url, startupID: startupID, activationToken: activationToken) { return true }
        // Not running: start it, unless a start is under way (then the newest link waits for it).
        let hold = starting.withLock { s -> Bool in
            if let current = s, ContinuousClock.now - current.since < Self.startGrace {
                s?.held = (url, startupID, activationToken)
                return true
            }
            s = Starting(since: .now, held: nil)
            return false
        }
        if hold { return true }
        let environment = StartupEnvironment.environment(ProcessInfo.processInfo.environment, activationToken: activationToken,
                                                          startupID: startupID)
        do {
            let log = self.log
            try Spawner.start(executable, ["--data-dir", dataDirectory, url], environment: environment) { [weak self] exit in
                if exit.code != 0 { log.warning("the Engram window exited with an error", metadata: ["status": "\(exit.code)"]) }
                // A link held for a window that ended without taking its name (it failed, or was closed at once)
                // is opened anew rather than lost.
                let held = self?.starting.withLock { s -> (String, String?, String?)? in
                    defer { s = nil }
                    return s?.held
                }
                if let self, let (url, _, token) = held { _ = self.open(url, activationToken: token) }
            }
            log.info("opened the Engram window")
            waitForBusName()
            return true
        } catch {
            starting.withLock { $0 = nil }
            log.warning("could not start the Engram window", metadata: ["error": "\(error)"])
            return false
        }
    }

    /// Hands the held link, if any, to the app once it is on the bus.
    private func waitForBusName() {
        DispatchQueue.global().async { [self] in
            let deadline = ContinuousClock.now + Self.startGrace
            while ContinuousClock.now < deadline {
                if (try? bus.withLock({ try $0?.nameOwner(Self.busName) })) ?? nil != nil { break }
                Thread.sleep(forTimeInterval: 0.05)
            }
            let held = starting.withLock { s -> (String, String?, String?)? in
                defer { s = nil }
                return s?.held
            }
            if let (url, startupID, token) = held { _ = tell(url, startupID: startupID, activationToken: token) }
        }
    }

    /// `org.freedesktop.Application.Open` on the running app; false when it is not running.
    private func tell(_ url: String, startupID: String?, activationToken: String?) -> Bool {
        bus.withLock { connection -> Bool in
            guard let connection, let owner = try? connection.nameOwner(Self.busName) else { return false }
            var platform: [String: DBusValue] = [:]
            if let activationToken { platform["activation-token"] = .string(activationToken) }
            if let startupID { platform["desktop-startup-id"] = .string(startupID) }
            do {
                // A call, not a message without reply: a window that has just gone must not swallow the link.
                _ = try connection.call(destination: owner, path: Self.objectPath, interface: "org.freedesktop.Application", method: "Open",
                                        arguments: [.array("s", [.string(url)]), .vardict(platform)], timeout: .seconds(3))
                log.info("asked the open Engram window to show a link")
                return true
            } catch {
                log.warning("could not reach the Engram window", metadata: ["error": "\(error)"])
                return false
            }
        }
    }
}
