import ArgumentParser
import EngramCore
import Foundation
import EngramApp
import Indexer

/// `engram stats`: the collection at a glance.
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stats", abstract: "Show counts, streaks and what is about to fade.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print as JSON.")
    var json = false

    func run() throws {
        try Terminal.reporting {
            let library = try global.library()
            let (s, context) = try library.store.statsInActiveContext(now: library.store.clock(), decay: library.config.decay)
            if json { try Terminal.printJSON(s); return }
            if context == "sleep" {
                print("The sleep context is on: nothing is shown. `engram context clear` shows everything again.")
                return
            }
            if let context { print("Context: \(Terminal.safe(context)) (`engram context clear` shows everything)") }
            let types = MemoryType.allCases.map { "\(s.perType[$0.rawValue] ?? 0) \($0.plural)" }.joined(separator: ", ")
            print("\(s.total) memories: \(types)")
            print("Today \(s.today) · this week \(s.thisWeek) · streak \(s.streakDays) day\(s.streakDays == 1 ? "" : "s")")
            if let t = s.topTag { print("Top tag: \(Terminal.safe(t)) (\(s.topTagCount))") }
            print("Connections: \(s.connections) · pinned: \(s.pinned)")
            print("Fading within a week: \(s.expiringSoon) · faded from search: \(s.expired)")
            if s.curricula > 0 { print("Curricula: \(s.curricula) with \(s.topics) topics, \(s.topicsDone) done") }
        }
    }
}
