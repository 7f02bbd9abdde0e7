import ArgumentParser
import Daemon
import EngramCore
import Foundation
import Logging

/// `engram daemon`: serve desktop search and keep the index, until stopped.
struct DaemonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Serve GNOME Shell, KRunner and D-Bus, and keep the search index up to date.",
        discussion: """
            Owns org.engram.Engram on the session bus and is the index writer while it runs: a memory captured \
            anywhere is searchable from the desktop within a moment. Usually started by D-Bus activation or the \
            engram.service user unit; run it by hand to watch its log. A second daemon says one is running and \
            exits with status 0. SIGTERM or SIGINT stop it after committing pending changes.

            Log lines go to standard error with <N> syslog priority prefixes, as journald reads them.
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(name: .shortAndLong, help: "Log every search and index pass (debug level); so does ENGRAM_VERBOSE=1 in the environment of a daemon the bus or systemd starts.")
    var verbose = false

    func run() throws {
        let level: Logger.Level = verbose || ProcessInfo.processInfo.environment["ENGRAM_VERBOSE"] == "1" ? .debug : .info
        LoggingSystem.bootstrap { JournalLogHandler(label: $0, level: level) }
        let daemon = EngramDaemon(options: EngramDaemon.Options(paths: global.paths), log: Logger(label: "engram.daemon"))
        let status = try Live.wait { await daemon.run() }
        if status != 0 { throw ExitCode(status) }
    }
}
