/// A failure of the search index, typed by what went wrong.
public enum IndexError: Error, Equatable, CustomStringConvertible {
    /// Another process or handle holds the index's write lock.
    case locked(String)
    /// The index (or an item in it) does not exist.
    case notFound(String)
    /// The search query could not be understood.
    case queryParse(String)
    /// The revision being read was replaced by a writer; reopening fixes it.
    case databaseModified(String)
    /// The index files are damaged or in a format this version cannot read.
    case corrupt(String)
    /// Reading or writing the index files failed.
    case io(String)
    /// A value passed to the index was not acceptable.
    case invalidArgument(String)
    /// Any other failure, with the underlying exception type and message.
    case other(type: String, message: String)

    /// A sentence for users saying what happened and what to do.
    public var description: String {
        switch self {
        case .locked(let detail):
            return "The search index is being updated by another Engram process; your data is safe, try again in a moment. (\(detail))"
        case .notFound(let detail):
            return "The search index was not found; rebuilding the index recreates it from your saved data. (\(detail))"
        case .queryParse(let detail):
            return "The search could not be understood; check quotes, brackets and field names like tag: or created:. (\(detail))"
        case .databaseModified(let detail):
            return "The search index changed while it was being read; search again. (\(detail))"
        case .corrupt(let detail):
            return "The search index is damaged or from an incompatible version; rebuilding the index recreates it from your saved data. (\(detail))"
        case .io(let detail):
            return "The search index could not be read or written; check disk space and permissions. (\(detail))"
        case .invalidArgument(let detail):
            return "The search index was given an invalid value: \(detail)" + (detail.hasSuffix(".") ? "" : ".")
        case .other(let type, let message):
            return "The search index failed unexpectedly (\(type): \(message))."
        }
    }
}
