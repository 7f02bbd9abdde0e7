import ArgumentParser
import EngramCore
import Foundation
import EngramApp
import Indexer
import Intents

/// `engram analytics`: study time per curriculum and topic, streaks and progress, with a chart.
struct AnalyticsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "analytics", abstract: "Print learning analytics and write a chart (SVG).")

    @OptionGroup var global: GlobalOptions
    @Option(help: "today, week, month, year or all.") var range = "month"
    @Option(help: ArgumentHelp("Write the chart here (default: analytics.svg in the data folder).", valueName: "file")) var chart: String?
    @Flag(name: .customLong("no-chart"), help: "Do not write a chart.") var noChart = false
    @Flag(help: "Print as JSON.") var json = false

    func run() throws {
        try Terminal.reporting {
            guard let r = TimeRange(spoken: range) else { throw EngramError.invalidInput("--range takes today, week, month, year or all") }
            let library = try global.library()
            let a = try LearningAnalytics.compute(store: library.store, range: r)
            if json { try Terminal.printJSON(a) } else { Terminal.write(Terminal.safe(a.table())) }
            guard !noChart else { return }
            let path = chart ?? library.paths.dataDirectory + "/analytics.svg"
            guard FileManager.default.createFile(atPath: path, contents: Data(a.svg().utf8), attributes: [.posixPermissions: 0o600]) else {
                throw EngramError.io("cannot write the chart to \(path)")
            }
            if !json { print("Chart: \(path)") }
        }
    }
}
