import Foundation

/// Short, readable, random identifiers for memories and sessions.
public enum Identifier {
    private static let alphabet = Array("0123456789abcdefghjkmnpqrstvwxyz")
    private static let letters = Set(alphabet)

    /// A new random id of `length` characters from a 32-letter alphabet without look-alikes.
    public static func make(length: Int = 10) -> String {
        var rng = SystemRandomNumberGenerator()
        return String((0..<length).map { _ in alphabet[Int(rng.next() % 32)] })
    }

    /// Whether every character of `text` is one `make` uses (the shape of a made id of any length).
    public static func isMade(_ text: String) -> Bool { text.allSatisfy(letters.contains) }

    /// The 64-bit FNV-1a hash of `bytes`: stable across runs and machines, not for security.
    public static func fnv1a<S: Sequence>(_ bytes: S) -> UInt64 where S.Element == UInt8 {
        var h: UInt64 = 0xcbf29ce484222325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100000001b3 }
        return h
    }

    /// A stable id derived from `text` (FNV-1a), e.g. for a note's path in a vault.
    public static func stable(_ text: String, prefix: String = "", length: Int = 10) -> String {
        var h = fnv1a(text.utf8)
        var out = prefix
        for _ in 0..<length { out.append(alphabet[Int(h & 31)]); h >>= 5; if h == 0 { h = 0x9e3779b97f4a7c15 } }
        return out
    }

    /// Whether `id` is acceptable as an item id: 1–64 characters of letters, digits, `-`, `_`, `.`.
    public static func isValid(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 64 && id.utf8.allSatisfy { b in
            (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 45 || b == 95 || b == 46
        }
    }
}
