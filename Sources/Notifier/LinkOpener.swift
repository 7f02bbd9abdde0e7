import EngramCore
import Foundation
import Synchronization

/// Opens an `engram://` link in whatever handles it: the outside edge behind a notification's Open button.
public protocol LinkOpener: Sendable {
    /// Opens `link`, passing the server's activation token so the opened window may take focus.
    func open(_ link: String, activationToken: String?) throws
}

/// Opens links with a program (by default `xdg-open`, found on `$PATH`) started by `Spawner`, handing it the
/// activation token as `XDG_ACTIVATION_TOKEN` (Wayland) and `DESKTOP_STARTUP_ID` (X11).
///
/// What the program (or whatever it starts) writes to standard error never reaches the terminal or
/// journal raw: each line goes to `report` with the link it was about, as does a failing exit status.
public struct ProcessLinkOpener: LinkOpener {
    /// The program and its leading arguments; the link is appended.
    public var command: [String]
    /// Hears what went wrong, one line at a time (the daemon's log, the CLI's notes).
    public var report: @Sendable (String) -> Void

    /// Creates an opener running `command link`; problems go to `report` (by default a `<4>` line on standard error).
    public init(command: [String] = ["xdg-open"], report: @escaping @Sendable (String) -> Void = ProcessLinkOpener.standardError) {
        self.command = command
        self.report = report
    }

    /// Writes `line` to standard error as a journald warning (`<4>engram: …`).
    public static let standardError: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data("<4>engram: \(line)\n".utf8))
    }

    public func open(_ link: String, activationToken: String?) throws {
        guard let program = command.first else { return }
        let environment = StartupEnvironment.environment(ProcessInfo.processInfo.environment, activationToken: activationToken)
        let child = try Spawner.spawn(program, Array(command.dropFirst()) + [link], environment: environment, stderr: .pipe)
        let name = (program as NSString).lastPathComponent
        let report = self.report
        // Read as it comes: what the opener starts may keep the pipe open long after the opener exits.
        if let errors = child.stderr {
            Thread.detachNewThread {
                let handle = FileHandle(fileDescriptor: errors, closeOnDealloc: true)
                let lines = LineBuffer()
                while case let data = handle.availableData, !data.isEmpty {
                    for line in lines.append(data) { report("\(name) (opening \(link)): \(line)") }
                }
                for line in lines.finish() { report("\(name) (opening \(link)): \(line)") }
            }
        }
        Spawner.reap(child.pid) { exit in
            switch exit {
            case .exited(let status) where status != 0: report("\(name) could not open \(link) (exit status \(status))")
            case .signaled(let signal): report("\(name) was killed by signal \(signal) while opening \(link)")
            default: break
            }
        }
    }
}

/// Splits bytes into lines as they arrive; thread-safe.
final class LineBuffer: Sendable {
    private let pending = Mutex<[UInt8]>([])

    /// Adds `data` and returns the complete lines it finished.
    func append(_ data: Data) -> [String] {
        pending.withLock { bytes in
            bytes += data
            var lines: [String] = []
            while let newline = bytes.firstIndex(of: 0x0A) {
                lines.append(String(decoding: bytes[..<newline], as: UTF8.self))
                bytes.removeSubrange(...newline)
            }
            return lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        }
    }

    /// The unfinished last line, if any.
    func finish() -> [String] {
        pending.withLock { bytes in
            defer { bytes = [] }
            let line = String(decoding: bytes, as: UTF8.self)
            return line.trimmingCharacters(in: .whitespaces).isEmpty ? [] : [line]
        }
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
