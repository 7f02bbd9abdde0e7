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

/// Owns C copies of Swift strings for the duration of one shim call.
final class ByteArena {
    private var allocations: [UnsafeMutableRawPointer] = []

    deinit {
        for pointer in allocations { pointer.deallocate() }
    }

    /// A cx_bytes for text, or an absent one (data == NULL) for nil; valid while the arena lives.
    func bytes(_ text: String?) -> cx_bytes {
        guard let text else { return cx_bytes(data: nil, length: 0) }
        let utf8 = text.utf8
        // Allocate at least one byte so an empty string is present, not absent.
        let pointer = UnsafeMutableRawPointer.allocate(byteCount: max(utf8.count, 1), alignment: 1)
        allocations.append(pointer)
        let buffer = UnsafeMutableRawBufferPointer(start: pointer, count: utf8.count)
        _ = buffer.initializeMemory(as: UInt8.self, from: utf8)
        return cx_bytes(data: pointer.assumingMemoryBound(to: CChar.self), length: utf8.count)
    }

    /// A C array of cx_bytes for texts; valid while the arena lives.
    func array(_ texts: [String]) -> UnsafePointer<cx_bytes>? {
        guard !texts.isEmpty else { return nil }
        let pointer = UnsafeMutablePointer<cx_bytes>.allocate(capacity: texts.count)
        allocations.append(UnsafeMutableRawPointer(pointer))
        for (index, text) in texts.enumerated() { (pointer + index).initialize(to: bytes(text)) }
        return UnsafePointer(pointer)
    }
}

extension String {
    /// Decodes borrowed shim bytes as UTF-8 (invalid sequences become U+FFFD).
    init(_ bytes: cx_bytes) {
        guard let data = bytes.data, bytes.length > 0 else { self = ""; return }
        let buffer = UnsafeRawBufferPointer(start: data, count: bytes.length)
        self = String(decoding: buffer, as: UTF8.self)
    }
}

/// Copies a cx_strings list into Swift strings and destroys it.
func takeStrings(_ list: OpaquePointer?) -> [String] {
    guard let list else { return [] }
    defer { cx_strings_destroy(list) }
    return (0..<cx_strings_count(list)).map { String(cx_strings_get(list, $0)) }
}
