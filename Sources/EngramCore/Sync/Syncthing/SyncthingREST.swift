import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One call to Syncthing's REST API; the real one talks HTTP to loopback, tests answer from memory.
public protocol SyncthingTransport: Sendable {
    /// Sends `method path` with an optional JSON body; returns the HTTP status and the body.
    func send(_ method: String, _ path: String, body: Data?) throws -> (status: Int, body: Data)
}

/// Syncthing's REST API over plain HTTP on a loopback address, with its API key (`X-API-Key`).
public struct SyncthingREST: SyncthingTransport {
    /// Where Syncthing listens and the key it takes.
    public let config: SyncthingConfig
    /// How long one call may take; `POST /rest/db/scan` waits for the scan.
    public var timeout: TimeInterval = 10

    /// A client for the Syncthing `config` describes.
    public init(config: SyncthingConfig) { self.config = config }

    /// The message for a Syncthing that does not answer.
    public var notRunning: String {
        "Syncthing is not running (nothing answers at \(config.address), from \(config.path)): start it with `systemctl --user start syncthing`"
    }

    public func send(_ method: String, _ path: String, body: Data?) throws -> (status: Int, body: Data) {
        guard config.address.hasPrefix("127."), let url = URL(string: "http://\(config.address)\(path)") else {
            throw EngramError.config("Syncthing's address \(config.address) is not on loopback")
        }
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = method
        request.setValue(config.apiKey, forHTTPHeaderField: "X-API-Key")
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        final class Outcome: @unchecked Sendable { var status = 0, body = Data(), error: Error? }
        let outcome = Outcome(), done = DispatchSemaphore(value: 0)
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        session.dataTask(with: request) { data, response, error in
            outcome.error = error
            outcome.status = (response as? HTTPURLResponse)?.statusCode ?? 0
            outcome.body = data ?? Data()
            done.signal()
        }.resume()
        done.wait()
        if outcome.error != nil || outcome.status == 0 { throw EngramError.io(notRunning) }
        if outcome.status == 403 || outcome.status == 401 {
            throw EngramError.config("Syncthing refused the API key in \(config.path) (HTTP \(outcome.status))")
        }
        return (outcome.status, outcome.body)
    }
}
