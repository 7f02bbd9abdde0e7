import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One call to Syncthing's REST API; the real one talks HTTP to loopback, tests answer from memory.
public protocol SyncthingTransport: Sendable {
    /// Sends `method path` with an optional JSON body; returns the HTTP status and the body.
    func send(_ method: String, _ path: String, body: Data?) throws -> (status: Int, body: Data)
}

/// Syncthing's REST API over plain HTTP on a loopback address, with its API key (`X-API-Key`).
///
/// A small HTTP/1.0 client over a TCP socket rather than URLSession: Foundation's URLSession on Linux (libcurl)
/// follows `http_proxy` even to 127.0.0.1 and would hand the API key to the proxy. HTTP/1.0 makes the server
/// close the connection after one plain (never chunked) body.
public struct SyncthingREST: SyncthingTransport {
    /// Where Syncthing listens and the key it takes.
    public let config: SyncthingConfig
    /// How long connecting, sending or one read may take; `POST /rest/db/scan` waits for the scan.
    public var timeout: TimeInterval = 10

    /// A client for the Syncthing `config` describes.
    public init(config: SyncthingConfig) { self.config = config }

    /// The message for a Syncthing that does not answer.
    public var notRunning: String {
        "Syncthing is not running (nothing answers at \(config.address), from \(config.path)): start it with `systemctl --user start syncthing`"
    }

    public func send(_ method: String, _ path: String, body: Data?) throws -> (status: Int, body: Data) {
        let fd = try connect()
        defer { close(fd) }
        var request = "\(method) \(path) HTTP/1.0\r\nHost: \(config.address)\r\nX-API-Key: \(config.apiKey)\r\n"
        request += "Content-Type: application/json\r\nContent-Length: \(body?.count ?? 0)\r\n\r\n"
        var out = Data(request.utf8)
        if let body { out.append(body) }
        let sent = out.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
        guard sent else { throw EngramError.io(notRunning) }
        var reply = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 { throw EngramError.io("Syncthing did not answer \(method) \(path.split(separator: "?")[0]) within \(Int(timeout)) s") }
            if n == 0 { break }
            reply.append(contentsOf: buffer[0..<n])
        }
        guard let end = reply.range(of: Data("\r\n\r\n".utf8)),
              let head = String(data: reply[..<end.lowerBound], encoding: .utf8),
              let status = head.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap({ Int($0) }) else {
            throw EngramError.io("Syncthing's answer to \(method) \(path.split(separator: "?")[0]) is not HTTP")
        }
        if status == 403 || status == 401 {
            throw EngramError.config("Syncthing refused the API key in \(config.path) (HTTP \(status))")
        }
        return (status, Data(reply[end.upperBound...]))
    }

    /// A TCP connection to the loopback address, with `timeout` on every send and receive.
    private func connect() throws -> Int32 {
        guard let colon = config.address.lastIndex(of: ":"), config.address.hasPrefix("127."),
              let port = UInt16(config.address[config.address.index(after: colon)...]) else {
            throw EngramError.config("Syncthing's address \(config.address) is not on loopback")
        }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        guard inet_pton(AF_INET, String(config.address[..<colon]), &addr.sin_addr) == 1 else {
            throw EngramError.config("Syncthing's address \(config.address) is not an IPv4 loopback address")
        }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw EngramError.io("cannot open a socket: \(String(cString: strerror(errno)))") }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        let ok = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard ok == 0 else {
            close(fd)
            throw EngramError.io(notRunning)
        }
        return fd
    }
}
