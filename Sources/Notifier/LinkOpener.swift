import EngramCore
import Foundation
import Synchronization

/// Opens an `engram://` link in whatever handles it: the outside edge behind a notification's Open button.
public protocol LinkOpener: Sendable {
    /// Opens `link`, passing the server's activation token so the opened window may take focus.
    func open(_ link: String, activationToken: String?) throws
}

/// Opens links with a program (by default `xdg-open`), handing it the activation token as
/// `XDG_ACTIVATION_TOKEN` (Wayland) and `DESKTOP_STARTUP_ID` (X11).
public struct ProcessLinkOpener: LinkOpener {
    /// The program and its leading arguments; the link is appended.
    public var command: [String]

    /// Creates an opener running `command link`.
    public init(command: [String] = ["xdg-open"]) {
        self.command = command
    }

    public func open(_ link: String, activationToken: String?) throws {
        guard let program = command.first else { return }
        let process = Process()
        if program.hasPrefix("/") {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = Array(command.dropFirst()) + [link]
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = command + [link]
        }
        process.environment = StartupEnvironment.environment(ProcessInfo.processInfo.environment, activationToken: activationToken)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
    }
}

/// Remembers the links it was asked to open, for tests.
public final class RecordingLinkOpener: LinkOpener {
    private let opened = Mutex<[(link: String, token: String?)]>([])

    /// Creates an empty recorder.
    public init() {}

    public func open(_ link: String, activationToken: String?) throws {
        opened.withLock { $0.append((link, activationToken)) }
    }

    /// What was opened, in order.
    public var links: [(link: String, token: String?)] { opened.withLock { $0 } }
}
