import EngramCore
import Foundation

/// Sound as the recogniser takes it: mono samples from -1 to 1 at a rate in Hz.
public struct Audio: Sendable, Equatable {
    /// The rate every recogniser here takes, and the microphone records at.
    public static let speechRate = 16_000

    public var samples: [Float]
    public var rate: Int

    public init(samples: [Float], rate: Int = Audio.speechRate) {
        self.samples = samples
        self.rate = rate
    }

    /// How long it lasts.
    public var seconds: Double { rate > 0 ? Double(samples.count) / Double(rate) : 0 }

    /// The root-mean-square level of samples `range` (0 for none).
    public func level(_ range: Range<Int>) -> Float {
        let r = range.clamped(to: 0..<samples.count)
        guard !r.isEmpty else { return 0 }
        var sum: Float = 0
        for i in r { sum += samples[i] * samples[i] }
        return (sum / Float(r.count)).squareRoot()
    }

    /// The same sound at `target` Hz (linear interpolation; speech keeps what the recogniser listens to).
    public func resampled(to target: Int) -> Audio {
        guard rate != target, rate > 0, !samples.isEmpty else { return Audio(samples: samples, rate: target) }
        let ratio = Double(rate) / Double(target)
        let count = Int(Double(samples.count) / ratio)
        var out = [Float](repeating: 0, count: count)
        for i in 0..<count {
            let x = Double(i) * ratio
            let j = Int(x)
            let f = Float(x - Double(j))
            let a = samples[j], b = j + 1 < samples.count ? samples[j + 1] : a
            out[i] = a + (b - a) * f
        }
        return Audio(samples: out, rate: target)
    }

    /// Reads a WAV file (PCM of 8, 16, 24 or 32 bits, or 32-bit float; any channels, mixed down to one); anything
    /// else is refused with what the file is.
    public static func read(wav path: String) throws -> Audio {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw EngramError.notFound("cannot read \(path)")
        }
        return try decode(wav: [UInt8](data), name: path)
    }

    static func decode(wav bytes: [UInt8], name: String) throws -> Audio {
        func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        guard bytes.count >= 12, bytes[0..<4] == [0x52, 0x49, 0x46, 0x46], bytes[8..<12] == [0x57, 0x41, 0x56, 0x45] else {
            throw EngramError.invalidInput("\(name) is not a WAV file (engram listen --from reads WAV; `sox IN OUT.wav` converts)")
        }
        var at = 12
        var format: (code: Int, channels: Int, rate: Int, bits: Int)?
        while at + 8 <= bytes.count {
            let id = String(decoding: bytes[at..<at + 4], as: UTF8.self)
            let size = u32(at + 4)
            let body = at + 8
            if id == "fmt ", body + 16 <= bytes.count {
                var code = u16(body)
                if code == 0xFFFE, size >= 26, body + 26 <= bytes.count { code = u16(body + 24) }  // WAVE_FORMAT_EXTENSIBLE
                format = (code, u16(body + 2), u32(body + 4), u16(body + 14))
            } else if id == "data" {
                guard let f = format else { throw EngramError.invalidInput("\(name): its sound comes before its format") }
                guard f.channels >= 1, f.rate >= 1000, f.rate <= 384_000 else {
                    throw EngramError.invalidInput("\(name): \(f.channels) channels at \(f.rate) Hz cannot be speech")
                }
                let end = min(bytes.count, body + (size == 0 || size == 0xFFFF_FFFF ? bytes.count : size))
                return Audio(samples: try samples(bytes[body..<end], f, name: name), rate: f.rate)
            }
            at = body + size + (size & 1)
        }
        throw EngramError.invalidInput("\(name) holds no sound (a WAV file without its data)")
    }

    private static func samples(_ data: ArraySlice<UInt8>, _ f: (code: Int, channels: Int, rate: Int, bits: Int), name: String) throws -> [Float] {
        let width = f.bits / 8
        guard (f.code == 1 && [1, 2, 3, 4].contains(width)) || (f.code == 3 && width == 4) else {
            throw EngramError.invalidInput("\(name): WAV format \(f.code) with \(f.bits) bits is not read (16-bit PCM is; `sox IN -b 16 OUT.wav` converts)")
        }
        let frame = width * f.channels
        let frames = data.count / frame
        var out = [Float](repeating: 0, count: frames)
        let base = data.startIndex
        for i in 0..<frames {
            var sum: Float = 0
            for c in 0..<f.channels {
                let p = base + i * frame + c * width
                let v: Float
                switch (f.code, width) {
                case (1, 1): v = (Float(data[p]) - 128) / 128
                case (1, 2): v = Float(Int16(bitPattern: UInt16(data[p]) | UInt16(data[p + 1]) << 8)) / 32768
                case (1, 3): v = Float(Int32(bitPattern: UInt32(data[p]) << 8 | UInt32(data[p + 1]) << 16 | UInt32(data[p + 2]) << 24) >> 8) / 8_388_608
                case (1, _): v = Float(Int32(bitPattern: UInt32(data[p]) | UInt32(data[p + 1]) << 8 | UInt32(data[p + 2]) << 16 | UInt32(data[p + 3]) << 24)) / 2_147_483_648
                default:
                    let x = Float(bitPattern: UInt32(data[p]) | UInt32(data[p + 1]) << 8 | UInt32(data[p + 2]) << 16 | UInt32(data[p + 3]) << 24)
                    v = x.isFinite ? max(-1, min(1, x)) : 0
                }
                sum += v
            }
            out[i] = sum / Float(f.channels)
        }
        return out
    }

    /// The sound as a 16-bit mono WAV file.
    public func wav() -> Data {
        var d = Data()
        func put32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { d.append(contentsOf: $0) } }
        func put16(_ v: Int) { withUnsafeBytes(of: UInt16(v).littleEndian) { d.append(contentsOf: $0) } }
        d.append(contentsOf: Array("RIFF".utf8)); put32(36 + samples.count * 2)
        d.append(contentsOf: Array("WAVEfmt ".utf8)); put32(16); put16(1); put16(1); put32(rate); put32(rate * 2); put16(2); put16(16)
        d.append(contentsOf: Array("data".utf8)); put32(samples.count * 2)
        d.append(contentsOf: pcm16())
        return d
    }

    /// The samples as signed 16-bit little-endian PCM (what Wyoming's audio chunks carry).
    public func pcm16() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: samples.count * 2)
        for (i, s) in samples.enumerated() {
            let v = UInt16(bitPattern: Int16(max(-32768, min(32767, (s * 32768).rounded()))))
            out[2 * i] = UInt8(v & 0xFF)
            out[2 * i + 1] = UInt8(v >> 8)
        }
        return out
    }

    /// Signed 16-bit little-endian PCM as samples.
    public static func fromPCM16(_ bytes: [UInt8], rate: Int) -> Audio {
        var s = [Float](repeating: 0, count: bytes.count / 2)
        for i in 0..<s.count { s[i] = Float(Int16(bitPattern: UInt16(bytes[2 * i]) | UInt16(bytes[2 * i + 1]) << 8)) / 32768 }
        return Audio(samples: s, rate: rate)
    }
}
