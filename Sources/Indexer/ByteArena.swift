import CXapian

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
