import DBus
import EngramCore
import Foundation
import Intents

/// The intents of the catalog on `org.engram.Engram1`: `Perform(s phrase)`, `RunShortcut(s name)` and one method per intent, named after it
/// (`StoreMemory(s content, s type)`, `QueryMemory(s query, i limit, b includeRelated)`, …), each answering
/// `(s sentence, s result)`: the spoken-style sentence and the whole result as JSON (`engram ask --json`'s schema).
///
/// The methods are made from `IntentCatalog.all`, so a new intent appears on the bus without code here. Empty
/// strings and negative numbers mean "the default". A phrase that matches nothing fails with
/// `org.engram.Engram.Error.NoMatch`, whose message names the closest intent and a phrase to try.
extension Engram1 {
    /// `Perform` and the per-intent methods.
    static func intentMethods(_ app: AppActions, resultActions: ResultActions) -> [DBusMethod] {
        let results = [DBusArgument("sentence", "s"), DBusArgument("result", "s")]
        let perform = DBusMethod("Perform", arguments: [DBusArgument("phrase", "s")], results: results, deferredHandler: { call, reply in
            do {
                let phrase: String = try call.argument(0)
                app.perform(.phrase(phrase), source: "dbus") { reply.settle($0.flatMap(replyValues)) }
            } catch {
                reply.fail(DaemonError.dbus(error))
            }
        })
        // `RunShortcut(s name) → (as sentences)`: what a desktop keybinding calls (`engram shortcut run` without a
        // terminal). Each result is shown as a notification; a step Engram must ask about is shown as its question
        // with the readings as buttons, and a button runs its reading.
        let shortcut = DBusMethod("RunShortcut", in: ["name": "s"], out: ["sentences": "as"], deferredHandler: { call, reply in
            do {
                let name: String = try call.argument(0)
                app.runShortcut(name, source: "shortcut") { outcome in
                    if case .success(let all) = outcome { for r in all { resultActions.alerts?.show(r) } }
                    if case .failure(let error) = outcome { resultActions.alerts?.show(failure: "\(error)", title: "Shortcut “\(name)”") }
                    reply.settle(outcome.map { [.array("s", $0.map { .string($0.sentence) })] })
                }
            } catch {
                reply.fail(DaemonError.dbus(error))
            }
        })
        return [perform] + IntentCatalog.all.map { definition in
            let arguments = definition.parameters.map { DBusArgument($0.name, DBusSignature(stringLiteral: $0.kind.dbusSignature)) }
            return DBusMethod(definition.name.rawValue, arguments: arguments, results: results, deferredHandler: { call, reply in
                let values = call.arguments.map(text)
                app.perform(.invocation(definition.invocation(dbusArguments: values)), source: "dbus") {
                    reply.settle($0.flatMap(replyValues))
                }
            })
        } + [shortcut]
    }

    /// `(sentence, result JSON)`.
    static func replyValues(_ result: IntentResult) -> Result<[DBusValue], any Error> {
        Result { [.string(result.sentence), .string(try result.json())] }
    }

    /// A D-Bus argument as the text the catalog reads: numbers in decimal, booleans as true/false.
    static func text(_ value: DBusValue) -> String {
        switch value.unwrapped {
        case .boolean(let b): String(b)
        case .int32(let n): String(n)
        case .string(let s): s
        default: value.stringValue ?? ""
        }
    }
}
