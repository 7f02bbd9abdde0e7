@testable import Daemon
import EngramCore
import Foundation
import Intents
import Testing

/// Every icon the daemon names is one the desktop has: GNOME Shell draws a missing icon as a broken image, and KRunner
/// as a blank. Debian 12's adwaita-icon-theme (43) and hicolor are the themes checked (`make test` installs them).
@Suite struct IconTests {
    typealias D = DaemonFixture

    /// Whether `name` (or its `-symbolic` variant, which GNOME falls back to) is a file of Adwaita or hicolor.
    static func resolves(_ name: String) -> Bool {
        let fm = FileManager.default
        for theme in ["/usr/share/icons/Adwaita", "/usr/share/icons/hicolor"] {
            for size in (try? fm.contentsOfDirectory(atPath: theme)) ?? [] {
                for context in (try? fm.contentsOfDirectory(atPath: theme + "/" + size)) ?? [] {
                    let dir = theme + "/" + size + "/" + context + "/"
                    for file in [name + ".png", name + ".svg", name + "-symbolic.svg", name + "-symbolic.png"]
                    where fm.fileExists(atPath: dir + file) {
                        return true
                    }
                }
            }
        }
        return false
    }

    @Test func everyIconNameWeSendIsInAdwaitaOrHicolor() throws {
        try #require(FileManager.default.fileExists(atPath: "/usr/share/icons/Adwaita/index.theme"),
                     "adwaita-icon-theme is not installed (scripts/install-deps.sh installs it)")
        #expect(Self.resolves("text-x-generic") && !Self.resolves("format-text-blockquote"), "the check itself is wrong")
        var names: [(what: String, icon: String)] = MemoryType.allCases.map { ("\($0) memories", $0.iconName) }
        names += [("curricula", ResultItem.iconName(kind: .curriculum, type: nil)), ("topics", ResultItem.iconName(kind: .topic, type: nil)),
                  ("unknown ids", ResultItem.unknown(id: "engram://memory/gone").iconName)]
        names += IntentName.allCases.map { ("the \($0.rawValue) command", KRunner1.iconName($0)) }
        names += KRunner1.actions.map { ("the \($0.id) action", $0.icon) }
        for (what, icon) in names {
            #expect(Self.resolves(icon), "\(what): \(icon) is in neither Adwaita nor hicolor")
        }
    }

    @Test func gnomeMetasAndKRunnerMatchesCarryAnIconPerKindThatTheThemeHas() async throws {
        try await withDaemon { d in
            // One memory of each type in the samples, a curriculum and a topic.
            let ids = ["memory/s001", "memory/s004", "memory/s034", "memory/s002", "memory/s006", "curriculum/swift-concurrency",
                       "topic/swift-concurrency-async-await"].map { "engram://" + $0 }
            let metas = try d.gdbusValue(D.providerPath, D.provider, "GetResultMetas", [D.gvariantStrings(ids)]).first as? [[String: Any]] ?? []
            #expect(metas.count == ids.count)
            var firstNames: [String] = []
            for meta in metas {
                let icon = meta["icon"] as? [Any]
                #expect(icon?.first as? String == "themed", "\(meta)")
                let names = icon?.last as? [String] ?? []
                #expect(names.contains(where: Self.resolves), "\(meta["id"] ?? "?"): none of \(names) is in the theme")
                firstNames.append(names.first ?? "")
            }
            #expect(Set(firstNames).count == ids.count, "kinds share an icon: \(zip(ids, firstNames).map { "\($0) \($1)" })")
            #expect(metas.first { $0["id"] as? String == "engram://memory/s002" }.flatMap { ($0["icon"] as? [Any])?.last as? [String] }?
                .first == MemoryType.quote.iconName, "s002 is a quote")

            // KRunner: results of every kind, and a command match on top.
            for query in ["swift", "meditations", "remember to water the plants"] {
                let matches = try d.gdbusValue(D.runnerPath, D.runner, "Match", [D.gvariantString(query)]).first as? [[Any]] ?? []
                #expect(!matches.isEmpty, "no matches for \(query)")
                for match in matches {
                    let icon = match.count > 2 ? match[2] as? String ?? "" : ""
                    #expect(Self.resolves(icon), "\(match.first ?? "?"): \(icon) is not in the theme")
                }
            }
        }
    }
}
