import EngramCore
import Foundation

/// A client of Wyoming, Home Assistant's voice protocol: each event is a JSON header line (`type`, `data_length`,
/// `payload_length`), then that many bytes of JSON data, then that many bytes of audio. A speech server answers
/// `transcribe` + `audio-start` + `audio-chunk`… + `audio-stop` with a `transcript`; a voice answers `synthesize`
/// with `audio-start`, `audio-chunk`…, `audio-stop`. Only used when `[voice]` names a server: nothing leaves the
/// machine otherwise.
public final class WyomingClient {
    public let host: String
    public let port: Int
    /// Seconds to wait for the server to answer.
    public var timeout: Double

    public init(host: String, port: Int, timeout: Double = 30) {
        self.host = host
        self.port = port
        self.timeout = timeout
    }

    public var address: String { "tcp://\(host):\(port)" }

    struct Event {
        var type: String
        var data: [String: Any]
        var payload: [UInt8]
    }

    /// A connected socket to the server.
    final class Connection {
        let fd: Int32
        var buffer: [UInt8] = []

        init(host: String, port: Int, timeout: Double) throws {
            var hints = addrinfo()
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var list: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
                throw VoiceUnavailable("the Wyoming server tcp://\(host):\(port): no such host")
            }
            defer { freeaddrinfo(list) }
            var connected: Int32 = -1
            var cursor: UnsafeMutablePointer<addrinfo>? = first
            while let a = cursor, connected < 0 {
                let s = socket(a.pointee.ai_family, a.pointee.ai_socktype, a.pointee.ai_protocol)
                if s >= 0 {
                    var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
                    setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
                    setsockopt(s, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
                    if connect(s, a.pointee.ai_addr, a.pointee.ai_addrlen) == 0 { connected = s } else { close(s) }
                }
                cursor = a.pointee.ai_next
            }
            guard connected >= 0 else {
                throw VoiceUnavailable("the Wyoming server tcp://\(host):\(port) does not answer (\(String(cString: strerror(errno))))")
            }
            fd = connected
        }

        deinit { close(fd) }

        func send(_ type: String, _ data: [String: Any] = [:], payload: [UInt8] = []) throws {
            let body = data.isEmpty ? Data() : try JSONSerialization.data(withJSONObject: data)
            var header: [String: Any] = ["type": type, "data_length": body.count]
            if !payload.isEmpty { header["payload_length"] = payload.count }
            var out = [UInt8](try JSONSerialization.data(withJSONObject: header))
            out.append(0x0A)
            out += body
            out += payload
            var sent = 0
            while sent < out.count {
                let n = out[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
                guard n > 0 else { throw VoiceUnavailable("the Wyoming server closed the connection") }
                sent += n
            }
        }

        private func fill(_ count: Int) throws {
            var chunk = [UInt8](repeating: 0, count: 65536)
            while buffer.count < count {
                let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
                guard n > 0 else {
                    throw VoiceUnavailable(n == 0 ? "the Wyoming server closed the connection" : "the Wyoming server did not answer in time")
                }
                buffer += chunk[0..<n]
            }
        }

        private func take(_ count: Int) throws -> [UInt8] {
            try fill(count)
            let out = Array(buffer[0..<count])
            buffer.removeFirst(count)
            return out
        }

        func receive() throws -> Event {
            var line: [UInt8] = []
            while true {
                if let nl = buffer.firstIndex(of: 0x0A) {
                    line = Array(buffer[0..<nl])
                    buffer.removeFirst(nl + 1)
                    break
                }
                guard buffer.count < 1 << 20 else { throw VoiceUnavailable("the Wyoming server sent a header longer than 1 MB") }
                try fill(buffer.count + 1)
            }
            guard let header = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any], let type = header["type"] as? String else {
                throw VoiceUnavailable("the Wyoming server sent something that is not a Wyoming event")
            }
            var data = header["data"] as? [String: Any] ?? [:]
            let dataLength = header["data_length"] as? Int ?? 0
            let payloadLength = header["payload_length"] as? Int ?? 0
            guard (0...(16 << 20)).contains(dataLength), (0...(64 << 20)).contains(payloadLength) else {
                throw VoiceUnavailable("the Wyoming server sent an event of impossible size")
            }
            if dataLength > 0, let more = try? JSONSerialization.jsonObject(with: Data(try take(dataLength))) as? [String: Any] {
                data.merge(more) { _, new in new }
            }
            return Event(type: type, data: data, payload: payloadLength > 0 ? try take(payloadLength) : [])
        }
    }

    /// The server's transcript of `audio`.
    public func transcribe(_ audio: Audio, language: String = "en") throws -> Heard {
        let clock = ContinuousClock()
        let start = clock.now
        let sound = audio.resampled(to: Audio.speechRate)
        let c = try Connection(host: host, port: port, timeout: timeout)
        let format: [String: Any] = ["rate": sound.rate, "width": 2, "channels": 1]
        try c.send("transcribe", ["language": language])
        try c.send("audio-start", format)
        let pcm = sound.pcm16()
        var at = 0
        while at < pcm.count {
            let end = min(pcm.count, at + 2048 * 2)
            try c.send("audio-chunk", format, payload: Array(pcm[at..<end]))
            at = end
        }
        try c.send("audio-stop")
        while true {
            let e = try c.receive()
            if e.type == "transcript" {
                let text = (e.data["text"] as? String ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
                return Heard(transcript: text, engine: "wyoming " + address, seconds: (clock.now - start).inSeconds)
            }
            if e.type == "error" { throw VoiceUnavailable("the Wyoming server: \(e.data["text"] as? String ?? "an error")") }
        }
    }

    /// The server's voice saying `text`.
    public func synthesize(_ text: String) throws -> Audio {
        let c = try Connection(host: host, port: port, timeout: timeout)
        try c.send("synthesize", ["text": text])
        var rate = 22050, width = 2, channels = 1
        var pcm: [UInt8] = []
        while true {
            let e = try c.receive()
            switch e.type {
            case "audio-start", "audio-chunk":
                rate = e.data["rate"] as? Int ?? rate
                width = e.data["width"] as? Int ?? width
                channels = e.data["channels"] as? Int ?? channels
                pcm += e.payload
            case "audio-stop":
                guard width == 2 else { throw VoiceUnavailable("the Wyoming voice sent \(width * 8)-bit sound; 16-bit is played") }
                var audio = Audio.fromPCM16(pcm, rate: rate)
                if channels > 1 {
                    audio.samples = stride(from: 0, to: audio.samples.count - channels + 1, by: channels).map { i in
                        audio.samples[i..<i + channels].reduce(0, +) / Float(channels)
                    }
                }
                return audio
            case "error":
                throw VoiceUnavailable("the Wyoming voice: \(e.data["text"] as? String ?? "an error")")
            default:
                continue
            }
        }
    }
}

extension WyomingClient: SpeechToText {
    public func transcribe(_ audio: Audio) throws -> Heard { try transcribe(audio, language: "en") }
}
