import EngramCore
import Foundation
import EngramApp
import Indexer

/// Small text helpers for command output.
enum Format {
    /// `text` cut to `limit` characters with an ellipsis.
    static func truncate(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(max(0, limit - 1))) + "…"
    }

    /// A count with its noun, singular or plural: `1 change`, `3 changes`, `2 memories`.
    static func count(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(n) " + (n == 1 ? singular : plural ?? singular + "s")
    }

    /// A local date like `2026-03-04`.
    static func day(_ date: Date) -> String {
        var tm = tm()
        var t = time_t(date.timeIntervalSince1970)
        localtime_r(&t, &tm)
        return String(format: "%04d-%02d-%02d", Int(tm.tm_year) + 1900, Int(tm.tm_mon) + 1, Int(tm.tm_mday))
    }

    /// A local date and time like `2026-03-04 09:12`.
    static func dateTime(_ date: Date) -> String {
        var tm = tm()
        var t = time_t(date.timeIntervalSince1970)
        localtime_r(&t, &tm)
        return String(format: "%04d-%02d-%02d %02d:%02d", Int(tm.tm_year) + 1900, Int(tm.tm_mon) + 1, Int(tm.tm_mday), Int(tm.tm_hour), Int(tm.tm_min))
    }

    /// A snippet with matched words highlighted on a terminal, plain elsewhere.
    static func snippet(_ s: Snippet) -> String {
        if Terminal.stdoutIsTTY {
            return s.rendered(open: "\u{1B}[1;33m", close: "\u{1B}[0m", escape: { Terminal.safe($0) })
        }
        return Terminal.safe(s.plainText)
    }
}

/// A memory as `--json` output shows it (schema version 1).
struct MemoryJSON: Encodable {
    var id: String
    var content: String
    var title: String
    var type: String
    var tags: [String]
    var context: String?
    var created: Date
    var updated: Date
    var lastReinforced: Date
    var useCount: Int
    var pinned: Bool
    var source: String?
    var decay: Double
    var expires: Date?
    var faded: Bool

    init(_ m: Memory, decay model: DecayModel, now: Date) {
        id = m.id; content = m.content; title = m.title; type = m.type.rawValue; tags = m.tags; context = m.context
        created = m.created; updated = m.updated; lastReinforced = m.lastReinforced; useCount = m.useCount
        pinned = m.pinned; source = m.source
        decay = (model.score(of: m, at: now) * 1000).rounded() / 1000
        expires = model.expiry(of: m)
        faded = model.isExpired(m, at: now)
    }
}
