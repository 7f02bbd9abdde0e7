import EngramCore
import Foundation
import EngramApp
import Indexer

/// Schedules intents to run later and runs those that are due; the daemon calls `runDue(now:)` each minute,
/// and without a daemon `engram ask --run-due` does.
public struct DelayedIntentRunner {
    public let runner: IntentRunner

    /// What running one due intent gave.
    public struct Ran: Sendable {
        public var delayed: DelayedIntent
        public var result: IntentResult?
        public var error: String?
        /// The sentence to notify with.
        public var sentence: String { result?.sentence ?? "“\(delayed.phrase ?? delayed.intent)” failed: \(error ?? "")" }
    }

    /// Creates a runner over an intent runner.
    public init(runner: IntentRunner) { self.runner = runner }

    /// Keeps `invocation` to run at `due`; optionally re-alerting every `realert` seconds, `realertLimit` times.
    @discardableResult
    public func schedule(_ invocation: IntentInvocation, phrase: String?, due: Date, realert: TimeInterval? = nil, realertLimit: Int = 3) throws -> DelayedIntent {
        _ = try invocation.resolved()  // refuse bad arguments now, not at 7:30
        let data = try JSONEncoder().encode(invocation.arguments)
        let d = DelayedIntent(intent: invocation.name.rawValue, arguments: String(decoding: data, as: UTF8.self), phrase: phrase,
                              due: due, created: runner.library.store.clock(), realertSeconds: realert,
                              realertLimit: realert == nil ? 0 : realertLimit, source: runner.source)
        try runner.library.store.scheduleIntent(d)
        return d
    }

    /// Runs every pending intent due at `now`, each once, and records its result.
    public func runDue(now: Date) throws -> [Ran] {
        let store = runner.library.store
        var out: [Ran] = []
        for d in try store.claimDueIntents(now: now) {
            do {
                guard let name = IntentName(rawValue: d.intent) else { throw EngramError.invalidInput("unknown intent \(d.intent)") }
                let args = try JSONDecoder().decode([String: String].self, from: Data(d.arguments.utf8))
                let r = try runner.run(IntentInvocation(name, args))
                try store.finishDelayedIntent(id: d.id, result: r.sentence, failed: false, at: now)
                out.append(Ran(delayed: try store.delayedIntent(id: d.id) ?? d, result: r))
            } catch {
                try store.finishDelayedIntent(id: d.id, result: "\(error)", failed: true, at: now)
                out.append(Ran(delayed: try store.delayedIntent(id: d.id) ?? d, error: "\(error)"))
            }
        }
        return out
    }
}

/// Reads "when" as people write it: `--in 10m`, `1h30m`, `90s`, `2d`; `--at 07:30` (the next time it is 07:30).
public enum When {
    /// `now` plus a duration like "10m", "1h30m", "45s", "2d".
    public static func after(_ text: String, from now: Date) throws -> Date {
        var total = 0.0
        var number = ""
        for ch in text.lowercased() where ch != " " {
            if ch.isNumber { number.append(ch); continue }
            guard let n = Double(number), let unit = ["s": 1.0, "m": 60, "h": 3600, "d": 86_400][String(ch)] else {
                throw EngramError.invalidInput("“\(text)” is not a duration; write 10m, 1h30m, 45s or 2d")
            }
            total += n * unit
            number = ""
        }
        if let n = Double(number) { total += n * 60 }  // a bare number means minutes
        guard total > 0, total <= 366 * 86_400 else { throw EngramError.invalidInput("“\(text)” is not a duration; write 10m, 1h30m, 45s or 2d") }
        return now.addingTimeInterval(total)
    }

    /// The next time after `now` that the clock shows `text` (HH:MM, 24-hour), in `calendar`'s time zone.
    public static func at(_ text: String, from now: Date, calendar: Calendar = .current) throws -> Date {
        let parts = text.split(separator: ":").map { Int($0) }
        guard parts.count == 2, let h = parts[0], let m = parts[1], (0..<24).contains(h), (0..<60).contains(m) else {
            throw EngramError.invalidInput("“\(text)” is not a time; write 07:30 or 18:05")
        }
        guard let next = calendar.nextDate(after: now, matching: DateComponents(hour: h, minute: m, second: 0), matchingPolicy: .nextTime) else {
            throw EngramError.invalidInput("cannot find the next \(text)")
        }
        return next
    }
}
