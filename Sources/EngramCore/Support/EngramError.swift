import Foundation

/// Errors Engram reports to people, each with a sentence that says what happened and what to do.
public enum EngramError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// No item has this id.
    case notFound(String)
    /// The input cannot be used as given.
    case invalidInput(String)
    /// A file or folder could not be read or written.
    case io(String)
    /// The store could not be opened or written.
    case store(String)
    /// The config file is malformed.
    case config(String)

    public var description: String {
        switch self {
        case .notFound(let m), .invalidInput(let m), .io(let m), .store(let m), .config(let m): m
        }
    }

    public var errorDescription: String? { description }

    /// The process exit status that matches this error (sysexits.h).
    public var exitCode: Int32 {
        switch self {
        case .notFound: 66      // EX_NOINPUT
        case .invalidInput: 65  // EX_DATAERR
        case .io: 74            // EX_IOERR
        case .store: 74
        case .config: 78        // EX_CONFIG
        }
    }
}
