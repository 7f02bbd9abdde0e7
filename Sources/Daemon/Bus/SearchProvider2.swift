import DBus
import EngramCore

/// `org.gnome.Shell.SearchProvider2` at `/org/engram/Engram/SearchProvider`: Engram in the GNOME Shell overview.
///
/// The bus thread answers each call itself (`SearchService.answer`); metas of the five results the shell shows come
/// from the hits of the last result sets, any others from the store. It drops the whole section if the metas differ in number from the ids it
/// asked for, so every id gets a meta, unknown ones a clear placeholder. Subsearch re-runs the query:
/// Xapian words do not narrow by prefix ("mil" finds nothing that "milk" finds).
enum SearchProvider2 {
    static let name = "org.gnome.Shell.SearchProvider2"
    /// Ids returned per search; the shell shows five and counts the rest.
    static let resultLimit = 20
    /// The most ids accepted in one GetResultMetas.
    static let maxIDs = 512
    /// The most ids whose metas are made on the bus thread; more go through the search queue.
    static let inlineMetas = 32

    static func interface(search: SearchService, results: ResultActions) -> DBusInterface {
        DBusInterface(name, methods: [
            DBusMethod("GetInitialResultSet", in: ["terms": "as"], out: ["results": "as"], deferredHandler: { call, reply in
                resultSet(call, termsAt: 0, search, reply)
            }),
            DBusMethod("GetSubsearchResultSet", in: ["previous_results": "as", "terms": "as"], out: ["results": "as"],
                       deferredHandler: { call, reply in
                resultSet(call, termsAt: 1, search, reply)
            }),
            DBusMethod("GetResultMetas", in: ["identifiers": "as"], out: ["metas": "aa{sv}"], deferredHandler: { call, reply in
                do {
                    let ids: [String] = try call.argument(0)
                    guard ids.count <= maxIDs else {
                        throw DaemonError.invalidArgs("GetResultMetas was asked for \(ids.count) ids; at most \(maxIDs) are answered")
                    }
                    // The shell asks for a handful; a long list (each unknown id a store read) is not answered on the
                    // bus thread, so it never holds up other calls.
                    let body: @Sendable (SearchService) -> [DBusValue] = { $0.items(for: ids).map(meta) }
                    let done: @Sendable (Result<[DBusValue], any Error>) -> Void = { reply.settle($0.map { [.array("a{sv}", $0)] }) }
                    if ids.count <= inlineMetas { search.answer(body, done: done) } else { search.run(body, done: done) }
                } catch {
                    reply.fail(DaemonError.dbus(error))
                }
            }),
            DBusMethod("ActivateResult", in: ["identifier": "s", "terms": "as", "timestamp": "u"], deferredHandler: { call, reply in
                do {
                    let id: String = try call.argument(0)
                    let timestamp: UInt32 = try call.argument(2)
                    results.activate(id, source: "gnome", timestamp: timestamp) { reply.settle($0.map { [] }) }
                } catch {
                    reply.fail(DaemonError.dbus(error))
                }
            }),
            DBusMethod("LaunchSearch", in: ["terms": "as", "timestamp": "u"], deferredHandler: { call, reply in
                do {
                    let terms: [String] = try call.argument(0)
                    let timestamp: UInt32 = try call.argument(1)
                    try checkTerms(terms)
                    results.launchSearch(terms, timestamp: timestamp)
                    reply.succeed([])
                } catch {
                    reply.fail(DaemonError.dbus(error))
                }
            }),
        ])
    }

    /// Runs a search for the terms at argument `index` and replies with the result ids.
    private static func resultSet(_ call: DBusMethodCall, termsAt index: Int, _ search: SearchService, _ reply: DBusDeferredReply) {
        do {
            let terms: [String] = try call.argument(index)
            try checkTerms(terms)
            let query = terms.joined(separator: " ")
            search.answerSearch(query, { try $0.searchIDs(query, limit: resultLimit, client: .gnome) }) { result in
                reply.settle(result.map { [.strings($0)] })
            }
        } catch {
            reply.fail(DaemonError.dbus(error))
        }
    }

    /// Refuses term lists no person could type.
    private static func checkTerms(_ terms: [String]) throws {
        guard terms.count <= SearchService.maxTerms else {
            throw DaemonError.invalidArgs("\(terms.count) search terms were sent; at most \(SearchService.maxTerms) are searched")
        }
    }

    /// The meta GNOME Shell shows for an item.
    static func meta(_ item: ResultItem) -> DBusValue {
        var meta: [String: DBusValue] = [
            "id": .string(item.id),
            "name": .string(item.title.isEmpty ? "(untitled)" : item.title),
            "description": .string(item.description),
            "icon": item.gicon.serialized,
        ]
        if !item.clipboardText.isEmpty { meta["clipboardText"] = .string(item.clipboardText) }
        return .vardict(meta)
    }
}

extension DBusDeferredReply {
    /// Answers with the values, or with the error as a D-Bus error.
    func settle(_ result: Result<[DBusValue], any Error>) {
        switch result {
        case .success(let values): succeed(values)
        case .failure(let error): fail(DaemonError.dbus(error))
        }
    }
}
