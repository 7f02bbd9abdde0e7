import EngramCore
import DBus
import Foundation

/// What the CLI uses to talk to a running daemon; it never starts one.
///
/// Calls go to the daemon's unique name, found with `GetNameOwner`: a call addressed to a unique
/// name can never D-Bus-activate anything, and when no daemon runs the client answers `.notRunning`
/// without touching the index. With no session bus at all (a console login, a cron job), it does not
/// connect and answers `.notRunning`.
public struct DaemonClient: Sendable {
    /// The outcome of asking the daemon to index pending changes.
    public enum SyncOutcome: Sendable, Equatable {
        /// The daemon indexed everything up to this store change.
        case synced(UInt64)
        /// No daemon runs on this session bus.
        case notRunning
        /// The daemon did not answer in time or refused; it still indexes on its own.
        case failed(String)
    }

    /// The bus address to use, or nil when there is no session bus.
    public let address: String?

    /// A client for the session bus of `environment` (its address, or `$XDG_RUNTIME_DIR/bus` if that exists).
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty {
            self.address = address
        } else if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/"),
                  FileManager.default.fileExists(atPath: runtime + "/bus") {
            self.address = "unix:path=" + runtime + "/bus"
        } else {
            self.address = nil
        }
    }

    /// Asks a running daemon to index pending changes now and waits up to `timeout` for it to finish.
    public func sync(timeout: Duration = .milliseconds(500)) -> SyncOutcome {
        do {
            guard let (bus, owner) = try connectToDaemon() else { return .notRunning }
            defer { bus.close() }
            let reply = try bus.call(destination: owner, path: DBusObjectPath(stringLiteral: EngramBus.appPath), interface: EngramBus.appInterface,
                                     method: "Sync", timeout: timeout)
            return .synced(reply.first?.uint64Value ?? 0)
        } catch let error as DBusError where error.name == DBusError.Name.serviceUnknown
            || error.name == DBusError.Name.nameHasNoOwner {
            return .notRunning
        } catch {
            return .failed(String(describing: error))
        }
    }

    /// Asks a running daemon to rebuild the index; returns the number of items, or nil when no daemon runs.
    public func rebuild(timeout: Duration = .seconds(3600)) throws -> Int? {
        guard let (bus, owner) = try connectToDaemon() else { return nil }
        defer { bus.close() }
        let reply = try bus.call(destination: owner, path: DBusObjectPath(stringLiteral: EngramBus.appPath), interface: EngramBus.appInterface,
                                 method: "Rebuild", timeout: timeout)
        return Int(reply.first?.uint32Value ?? 0)
    }

    /// Runs the shortcut `name` in a running daemon, which shows each result, or the question it stops at, as a
    /// notification (its buttons answer the question); the result sentences, or nil when no daemon runs.
    public func runShortcut(_ name: String, timeout: Duration = .seconds(120)) throws -> [String]? {
        guard let (bus, owner) = try connectToDaemon() else { return nil }
        defer { bus.close() }
        let reply = try bus.call(destination: owner, path: DBusObjectPath(stringLiteral: EngramBus.appPath), interface: EngramBus.appInterface,
                                 method: "RunShortcut", arguments: [.string(name)], timeout: timeout)
        return reply.first?.stringArrayValue ?? []
    }

    /// The process id of the running daemon (the owner of org.engram.Engram), or nil when none runs or it cannot be told.
    public func daemonPID() -> pid_t? {
        guard let (bus, owner) = try? connectToDaemon() else { return nil }
        defer { bus.close() }
        let reply = try? bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                                  method: "GetConnectionUnixProcessID", arguments: [.string(owner)], timeout: .seconds(2))
        return reply?.first?.uint32Value.map { pid_t(bitPattern: $0) }
    }

    /// The connection and the daemon's unique name, or nil when no bus or no daemon.
    private func connectToDaemon() throws -> (DBusConnection, String)? {
        guard let address else { return nil }
        let bus: DBusConnection
        do {
            bus = try DBusConnection(address: address)
        } catch {
            return nil
        }
        guard let owner = try bus.nameOwner(EngramBus.name) else {
            bus.close()
            return nil
        }
        return (bus, owner)
    }
}
