import Foundation
import Logging

/// A swift-log handler that writes one line per event to standard error, prefixed with a `<N>` syslog
/// priority so journald files each line at the right level; no colours, no timestamps (journald adds them).
///
///     <6>applied 1 change to the index in 3 ms seq=42
public struct JournalLogHandler: LogHandler {
    /// Where the lines go (standard error unless a test captures them).
    public typealias Sink = @Sendable (String) -> Void

    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    private let sink: Sink

    /// A handler writing to standard error.
    public init(label: String, level: Logger.Level = .info) {
        self.init(label: label, level: level, sink: JournalLogHandler.standardError)
    }

    /// A handler writing lines (without the newline) to `sink`.
    public init(label: String, level: Logger.Level = .info, sink: @escaping Sink) {
        self.logLevel = level
        self.sink = sink
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var all = metadata
        if let extra = event.metadata { all.merge(extra) { _, new in new } }
        sink(Self.line(level: event.level, message: "\(event.message)", metadata: all))
    }

    /// The syslog priority journald reads from the prefix: 7 debug … 2 critical.
    public static func priority(of level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// One log line: priority prefix, the message on a single line, then sorted `key=value` metadata.
    public static func line(level: Logger.Level, message: String, metadata: Logger.Metadata) -> String {
        var out = "<\(priority(of: level))>" + singleLine(message)
        for key in metadata.keys.sorted() {
            out += " \(singleLine(key))=\(singleLine("\(metadata[key]!)"))"
        }
        return out
    }

    /// Folds newlines into `\n` and drops other control characters (escape sequences included).
    static func singleLine(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += " "
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Writes a line to standard error with a single `write(2)`, so lines from threads never interleave.
    static let standardError: Sink = { line in
        let bytes = Array((line + "\n").utf8)
        bytes.withUnsafeBufferPointer { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(2, buffer.baseAddress! + offset, buffer.count - offset)
                if n <= 0 { if n < 0 && errno == EINTR { continue } else { return } }
                offset += n
            }
        }
    }
}
