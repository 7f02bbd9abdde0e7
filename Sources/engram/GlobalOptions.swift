import ArgumentParser
import EngramCore
import Foundation
import EngramApp
import Indexer

/// Options every command shares.
struct GlobalOptions: ParsableArguments {
    @Option(name: .customLong("data-dir"), help: ArgumentHelp("Use this data folder instead of $XDG_DATA_HOME/engram.", valueName: "folder"))
    var dataDirectory: String?

    /// The folders to use, from the flag or the environment.
    var paths: EngramPaths {
        var p = EngramPaths.fromEnvironment()
        if let d = dataDirectory {
            p.useDataDirectory(d)
        }
        return p
    }

    /// Opens the library, reporting failures the Engram way.
    func library() throws -> Library {
        try Terminal.reporting { try Library(paths: paths) }
    }
}
