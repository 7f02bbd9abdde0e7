import Foundation

/// A temporary folder removed when the value is released.
public final class TempDir: @unchecked Sendable {
    /// The folder's path (it exists).
    public let path: String

    /// A new empty folder under the system's temporary folder.
    public init() {
        path = NSTemporaryDirectory() + "engram-test-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
