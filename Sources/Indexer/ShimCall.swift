import CXapian

/// Calls a shim function that reports failure through a status and a cx_error, throwing the typed IndexError.
func shimCall(_ body: (UnsafeMutablePointer<OpaquePointer?>) -> cx_status) throws(IndexError) {
    var error: OpaquePointer?
    let status = body(&error)
    guard status != CX_STATUS_SUCCESS else { return }
    defer { cx_error_destroy(error) }
    throw IndexError(status: status, error: error)
}

extension IndexError {
    /// Maps a shim status and its error details to the typed Swift error.
    init(status: cx_status, error: OpaquePointer?) {
        let type = error.map { String(cString: cx_error_type($0)) } ?? ""
        var message = error.map { String(cString: cx_error_message($0)) } ?? ""
        if message.isEmpty { message = String(cString: cx_status_to_string(status)) }
        switch status {
        case CX_STATUS_DATABASE_LOCKED: self = .locked(message)
        case CX_STATUS_DATABASE_NOT_FOUND, CX_STATUS_DOCUMENT_NOT_FOUND: self = .notFound(message)
        case CX_STATUS_QUERY_PARSER_ERROR: self = .queryParse(message)
        case CX_STATUS_DATABASE_MODIFIED: self = .databaseModified(message)
        case CX_STATUS_DATABASE_CORRUPT, CX_STATUS_DATABASE_VERSION: self = .corrupt(message)
        case CX_STATUS_DATABASE_ERROR: self = .io(message)
        case CX_STATUS_INVALID_ARGUMENT: self = .invalidArgument(message)
        default: self = .other(type: type.isEmpty ? String(cString: cx_status_to_string(status)) : type, message: message)
        }
    }
}
