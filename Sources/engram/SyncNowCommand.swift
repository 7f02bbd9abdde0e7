import EngramClient
import ArgumentParser
import EngramCore
import Foundation
import EngramApp
import Indexer

/// `engram sync now`: write this device's changes, read the others', and make them searchable.
struct SyncNowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "now", abstract: "Exchange changes with the sync folder now.")

    @OptionGroup var global: GlobalOptions

    func run() throws {
        try Terminal.reporting {
            let library = try global.library()
            var folder = try SyncCommand.folder(library)
            folder.crashPoint = Library.crashHook
            // A session another device claimed is paused first, so the pause goes out with this sync (`engram handoff`).
            let handedOver = (try? library.handoff?.answerClaims()) ?? []
            let (exported, report) = try folder.syncNow()
            let continued = try? library.handoff?.completeClaim()
            let device = try library.store.syncDevice() ?? "?"
            print("This device (\(device)) wrote \(Format.count(exported, "change")); "
                  + "applied \(Format.count(report.applied, "change")) from \(Format.count(report.peers.count, "other device")).")
            if report.parked > 0 || report.skipped > 0 {
                print("\(report.parked) kept for later (a newer Engram's, or dated ahead), \(report.skipped) skipped: `engram sync status` says why.")
            }
            for s in handedOver { print("Handed “\(Terminal.safe(s.title))” over to another device, paused here.") }
            if case .resumed(let s)? = continued { print("Continuing here: " + SessionCommand.describe(s, now: library.store.clock())) }
            if report.applied > 0, !(try IndexClient().makeSearchable(library).isSearchable) {
                print("The changes will be searchable in a moment.")
            }
        }
    }
}
