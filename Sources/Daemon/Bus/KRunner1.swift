import DBus
import EngramCore
import Foundation
import Intents

/// `org.kde.krunner1` at `/runner`: Engram in KRunner and the Plasma launcher's search.
///
/// KRunner orders equal relevances by text, so relevances strictly decrease down the list to keep
/// Xapian's order. Matches carry their `engram://` link as id and in `urls` (so they can be dragged),
/// a category (Memories, Curricula, Topics) and a one-line subtext. Actions: copy the text, pin or
/// unpin. A query that is a phrase from the intent catalog ("remember buy milk", "start studying swift concurrency")
/// also gives a command match on top, in the Commands category, whose Run performs the intent (its result
/// arrives as a notification). There is deliberately no "forget" action: forgetting cannot be undone, and one stray key in
/// a launcher should not lose a memory (`engram forget` asks first).
enum KRunner1 {
    static let name = "org.kde.krunner1"
    /// Matches returned per query.
    static let resultLimit = 10
    /// KF5's `QueryMatch::Type` (KF6: category relevance): 100 exact, 30 possible.
    static let exactType: Int32 = 100
    static let possibleType: Int32 = 30

    /// The actions KRunner shows on a match: (id, text, icon).
    static let actions: [(id: String, text: String, icon: String)] = [
        ("copy", "Copy text", "edit-copy"),
        ("pin", "Pin: never fade from search", "view-pin"),
        ("unpin", "Unpin: fade again with disuse", "view-pin"),
    ]

    static var actionsValue: DBusValue {
        .array("(sss)", actions.map { .struct([.string($0.id), .string($0.text), .string($0.icon)]) })
    }

    static func interface(search: SearchService, results: ResultActions, settings: DesktopSettings) -> DBusInterface {
        DBusInterface(name, methods: [
            // KRunner calls Teardown when its session ends (the window closes): until the next Match nobody needs the
            // cached results nor the open index, so both go, and the reply says they have.
            DBusMethod("Teardown", deferredHandler: { _, reply in
                search.run({ $0.release() }) { _ in reply.succeed([]) }
            }),
            // Only MinLetterCount: KF5 5.103's RunnerManager takes an "Actions" entry here as an empty list (it reads
            // the a(sss) variant without demarshalling it) and then never calls Actions, so no match had actions in
            // the real KRunner (scripts/shells/krunner). Without it, KRunner asks Actions once (Request-Actions-Once).
            DBusMethod("Config", in: [:], out: ["config": "a{sv}"]) { _ in
                [.vardict(["MinLetterCount": .int32(Int32(settings.minLetters))])]
            },
            DBusMethod("Actions", in: [:], out: ["matches": "a(sss)"]) { _ in [actionsValue] },
            DBusMethod("Run", in: ["matchId": "s", "actionId": "s"], deferredHandler: { call, reply in
                do {
                    let id: String = try call.argument(0)
                    let action: String = try call.argument(1)
                    results.run(id, action: action) { reply.settle($0.map { [] }) }
                } catch {
                    reply.fail(DaemonError.dbus(error))
                }
            }),
            // Frameworks 6.17 on: the activation token for the window a Run opens, sent just before that Run, so the
            // compositor (Wayland's xdg-activation) lets it take focus.
            DBusMethod("SetActivationToken", in: ["token": "s"], out: [:]) { call in
                results.setActivationToken(try call.argument(0))
                return []
            },
            DBusMethod("Match", in: ["query": "s"], out: ["matches": "a(sssida{sv})"], deferredHandler: { call, reply in
                do {
                    let query: String = try call.argument(0)
                    guard query.trimmingCharacters(in: .whitespaces).count >= settings.minLetters else {
                        reply.succeed([.array("(sssida{sv})", [])])
                        return
                    }
                    search.answerSearch(query, { search -> [DBusValue] in
                        let found = try search.search(query, limit: resultLimit, client: .krunner)
                        let command = search.command(for: query, client: .krunner).map { [commandMatch($0)] } ?? []
                        return command + matches(found, query: query)
                    }) { result in
                        reply.settle(result.map { [.array("(sssida{sv})", $0)] })
                    }
                } catch {
                    reply.fail(DaemonError.dbus(error))
                }
            }),
        ])
    }

    /// The relevance of a command match: above every search result (they top out at 0.9), since the words were a command.
    static let commandRelevance = 0.95

    /// The match for an intent the query phrased: id `intent:Name?args`, category Commands, no actions.
    static func commandMatch(_ invocation: IntentInvocation) -> DBusValue {
        let def = IntentCatalog.definition(invocation.name)
        let properties: [String: DBusValue] = [
            "subtext": .string(def.summary + " Enter runs it."),
            "category": .string(commandCategory),
            "actions": .strings([]),
        ]
        return .struct([.string(invocation.commandID), .string(invocation.label), .string(iconName(invocation.name)),
                        .int32(exactType), .double(commandRelevance), .vardict(properties)])
    }

    /// KRunner's category for command matches.
    static let commandCategory = "Commands"

    /// A freedesktop icon per intent: names from the Icon Naming Specification that Adwaita and Breeze both have.
    static func iconName(_ name: IntentName) -> String {
        switch name {
        case .storeMemory: "document-new"
        case .queryMemory: "edit-find"
        case .summarizeTopic: "format-justify-left"
        case .showConnections, .relatedMemories: "network-workgroup"
        case .tagMemory, .pinMemory: "bookmark-new"
        case .forgetMemory: "edit-delete"
        case .dailyReview: "x-office-calendar"
        case .memoryStats, .showAnalytics: "x-office-spreadsheet"
        case .startSession, .resumeSession: "media-playback-start"
        case .pauseSession: "media-playback-pause"
        case .stopSession: "media-playback-stop"
        case .openCurriculum, .openTopic: "x-office-address-book"
        case .showHistory: "document-open-recent"
        case .exportProgress: "document-save-as"
        }
    }

    /// The match tuples for items in Xapian's order, with strictly decreasing relevance.
    static func matches(_ items: [ResultItem], query: String) -> [DBusValue] {
        let relevances = relevances(items.map(\.relevance))
        let typed = query.trimmingCharacters(in: .whitespaces).lowercased()
        return zip(items, relevances).map { item, relevance in
            var properties: [String: DBusValue] = [
                "subtext": .string(item.description),
                "category": .string(item.category),
                "urls": .strings([item.id]),
            ]
            properties["actions"] = .strings(item.kind == .memory ? ["copy", item.pinned ? "unpin" : "pin"] : ["copy"])
            let type = item.title.lowercased() == typed ? exactType : possibleType
            return .struct([.string(item.id), .string(shortTitle(item.title)), .string(item.iconName), .int32(type),
                            .double(relevance), .vardict(properties)])
        }
    }

    /// The longest match text, in characters. KRunner's list (Milou) gives the text the whole row, elided in the
    /// middle, and shows the subtext only beside the selected row in the room left: a memory's whole first line hid
    /// its subtext and the middle of its own words (seen in the real KRunner list, scripts/shells/krunner).
    static let textLimit = 48

    /// The title cut at a word boundary to at most `textLimit` characters, ending in "…" when cut.
    static func shortTitle(_ title: String) -> String {
        guard title.count > textLimit else { return title }
        let head = title.prefix(textLimit - 1)
        let cut = head.lastIndex(of: " ").map { head[..<$0] } ?? head
        let words = cut.count >= textLimit / 2 ? cut : head
        return String(words).trimmingCharacters(in: CharacterSet(charactersIn: " ,;:.-–—")) + "…"
    }

    /// Relevances that keep the given order: the best hit's relevance sets the top (0.4…0.9, so a
    /// weak match does not push other runners' good ones down), then each is a fixed step below the last.
    static func relevances(_ xapian: [Double]) -> [Double] {
        guard let best = xapian.first else { return [] }
        let top = 0.4 + 0.5 * min(max(best.isFinite ? best : 0, 0), 1)
        let step = min(0.05, top / Double(xapian.count + 1))
        return xapian.indices.map { top - Double($0) * step }
    }
}
