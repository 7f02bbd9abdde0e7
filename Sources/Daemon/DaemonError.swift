import DBus
import EngramCore
import EngramApp
import Indexer
import Intents

/// How the daemon's failures cross the bus: each error keeps its sentence and gets a name callers can match.
enum DaemonError {
    /// An `InvalidArgs` error with a message.
    static func invalidArgs(_ message: String) -> DBusError { .invalidArgs(message) }

    /// Any error as a D-Bus error: Engram errors as `org.engram.Engram.Error.*`, index errors likewise.
    static func dbus(_ error: any Error) -> DBusError {
        switch error {
        case let e as DBusError:
            return e
        case let e as EngramError:
            let name = switch e {
            case .notFound: "NotFound"
            case .invalidInput: "InvalidInput"
            case .io: "IO"
            case .store: "Store"
            case .config: "Config"
            }
            return DBusError(name: EngramBus.errorPrefix + name, message: e.description)
        case let e as IntentError:
            let name = switch e {
            case .noMatch: "NoMatch"
            case .badArgument: "InvalidInput"
            case .unclear: "Unclear"
            }
            return DBusError(name: EngramBus.errorPrefix + name, message: e.description)
        case let e as IndexError:
            let name = switch e {
            case .locked: "Busy"
            case .queryParse, .invalidArgument: "InvalidInput"
            case .notFound, .corrupt: "IndexUnavailable"
            default: "Index"
            }
            return DBusError(name: EngramBus.errorPrefix + name, message: e.description)
        default:
            return .failed(String(describing: error))
        }
    }
}
