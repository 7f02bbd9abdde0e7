import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Logging
import MCP
import Synchronization

/// Standard input and output as MCP's stdio transport: one JSON-RPC message per line, either way.
///
/// It stands in for the SDK's `StdioTransport`, which (0.12.1) scans its whole input buffer again for every 4 KB
/// read (a 12 MB line took minutes), grows that buffer without bound, and ends the moment input ends, dropping the
/// answers to requests still running. Here reading is linear, a line longer than `maxLine` is dropped as it streams
/// by (the server answers it with a parse error), and at the end of input the stream ends only once every request
/// read has been answered, so a client that writes its requests and closes its end still gets every answer.
actor LineTransport: Transport {
    nonisolated let logger = Logger(label: "engram.mcp", factory: { _ in SwiftLogNoOpLogHandler() })

    /// The longest message line taken, in bytes.
    static let maxLine = 8 << 20
    /// How long the end of input waits for the answers still due.
    static let drainTimeout: Duration = .seconds(60)

    private let stream: AsyncThrowingStream<Data, any Error>
    private let continuation: AsyncThrowingStream<Data, any Error>.Continuation
    /// Requests read and not answered yet.
    private let due = Mutex(0)
    private var started = false

    init() {
        (stream, continuation) = AsyncThrowingStream.makeStream(of: Data.self, throwing: (any Error).self)
    }

    func connect() async throws {
        guard !started else { return }
        started = true
        let thread = Thread { [self] in readLoop() }
        thread.name = "engram-mcp-stdin"
        thread.start()
    }

    func disconnect() async { continuation.finish() }

    func receive() -> AsyncThrowingStream<Data, any Error> { stream }

    /// Writes one message and its newline; an answer makes one fewer due.
    func send(_ data: Data) async throws {
        var bytes = [UInt8](data)
        bytes.append(UInt8(ascii: "\n"))
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw MCPError.transportError(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO))
            }
            offset += n
        }
        if Self.isAnswer(data) { due.withLock { $0 -= 1 } }
    }

    /// Reads standard input on a thread of its own (blocking reads), handing each line to the server.
    private nonisolated func readLoop() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var line: [UInt8] = []
        var tooLong = false
        func deliver() {
            defer { line.removeAll(keepingCapacity: line.count <= 1 << 20); tooLong = false }
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            if tooLong {
                due.withLock { $0 += 1 }
                continuation.yield(Data("a line over \(Self.maxLine) bytes".utf8))  // not JSON: answered with a parse error
                return
            }
            guard !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else { return }
            let data = Data(line)
            if Self.expectsAnswer(data) { due.withLock { $0 += 1 } }
            continuation.yield(data)
        }
        while true {
            let n = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            var start = 0
            while let newline = buffer[start..<n].firstIndex(of: UInt8(ascii: "\n")) {
                append(buffer[start..<newline])
                deliver()
                start = newline + 1
            }
            append(buffer[start..<n])
        }
        if !line.isEmpty { deliver() }
        // The end of input: wait for the answers still due, then end the stream (and with it the server).
        let deadline = ContinuousClock.now + Self.drainTimeout
        while due.withLock({ $0 }) > 0 && ContinuousClock.now < deadline { usleep(5_000) }
        continuation.finish()

        func append(_ bytes: ArraySlice<UInt8>) {
            guard !tooLong else { return }
            if line.count + bytes.count > Self.maxLine {
                tooLong = true
                line.removeAll()
            } else {
                line.append(contentsOf: bytes)
            }
        }
    }

    /// Whether the server answers this line: anything but a notification (a method without an id) or a response.
    static func expectsAnswer(_ data: Data) -> Bool {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return true }
        return object["method"] != nil && object["id"] != nil || object["method"] == nil && object["result"] == nil && object["error"] == nil
    }

    /// Whether an outgoing message answers a request (a result or an error, not a notification or request of its own).
    static func isAnswer(_ data: Data) -> Bool {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return false }
        return object["method"] == nil && (object["result"] != nil || object["error"] != nil)
    }
}
