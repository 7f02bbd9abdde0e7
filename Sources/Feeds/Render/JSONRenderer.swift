/// `--format json`: the feed as versioned JSON on one line (schema: Integrations/FEEDS-SCHEMA.md).
public struct JSONRenderer: FeedRenderer {
    /// The schema version; bumped only when a field changes meaning or goes away.
    public static let version = 1
    /// The most characters of `content` a memory carries.
    public static let contentLimit = 4096

    public init() {}

    public func render(_ r: FeedResult) -> String {
        var fields: [(String, JSONValue)] = [
            ("version", .int(Self.version)),
            ("feed", .string(r.feed.rawValue)),
            ("size", .string(r.size.rawValue)),
            ("state", .string(r.state.rawValue)),
            ("context", .optional(r.context)),
            ("generated", .string(Timestamp.iso(r.generated))),
            ("message", .optional(r.message)),
            ("display", display(r.view)),
        ]
        fields += payload(r)
        return JSONValue.object(fields).encoded
    }

    private func display(_ v: FeedView) -> JSONValue {
        .object([
            ("text", .string(v.text)),
            ("short", .string(v.shortText)),
            ("alt", .string(v.alt)),
            ("class", .array(v.classes.map { .string($0) })),
            ("percentage", .int(v.percentage)),
            ("color", .optional(v.color)),
            ("block", .array(v.block.map { .string($0) })),
            ("tooltip", .array(v.tooltip.map { .string($0) })),
        ])
    }

    /// The feed's own keys; present in every state (null or empty when there is nothing).
    private func payload(_ r: FeedResult) -> [(String, JSONValue)] {
        let now = r.generated
        switch (r.feed, r.payload) {
        case (.motd, .memory(let d)): return [("memory", d.map { memory($0, now: now) } ?? .null)]
        case (.motd, _): return [("memory", .null)]
        case (.recent, .memories(let list)): return [("memories", .array(list.map { memory($0, now: now) }))]
        case (.recent, _): return [("memories", .array([]))]
        case (.stats, .stats(let s)): return [("stats", stats(s))]
        case (.stats, _): return [("stats", .null)]
        case (.session, .session(let d)): return [("session", d.map(session) ?? .null)]
        case (.session, _): return [("session", .null)]
        case (.review, .review(let s, let list)):
            return [("review", .object([("due", .int(s.due)), ("reviewedToday", .int(s.reviewedToday)), ("faded", .int(s.faded)),
                                        ("progress", .int(ReviewFeed.progress(s)))])),
                    ("memories", .array(list.map { memory($0, now: now) }))]
        case (.review, _): return [("review", .null), ("memories", .array([]))]
        }
    }

    private func memory(_ d: MemoryDetail, now: Double) -> JSONValue {
        let m = d.memory
        let head = m.content.prefix(Self.contentLimit)
        let truncated = head.endIndex != m.content.endIndex
        return .object([
            ("id", .string(m.id)),
            ("title", .string(m.title)),
            ("content", .string(String(head))),
            ("contentTruncated", .bool(truncated)),
            ("type", .string(m.facts.kind.rawValue)),
            ("tags", .array(m.facts.tags.map { .string($0) })),
            ("context", .optional(m.facts.context)),
            ("created", .string(Timestamp.iso(m.facts.created))),
            ("lastReinforced", .string(Timestamp.iso(m.facts.lastReinforced))),
            ("useCount", .int(m.facts.useCount)),
            ("pinned", .bool(m.facts.pinned)),
            ("links", .int(m.facts.links)),
            ("strength", .double(d.strength)),
            ("expires", d.expires.map { .string(Timestamp.iso($0)) } ?? .null),
            ("daysLeft", d.daysLeft(at: now).map { .int($0) } ?? .null),
            ("faded", .bool(d.faded)),
        ])
    }

    private func stats(_ s: MemoryStats) -> JSONValue {
        .object([
            ("total", .int(s.total)), ("today", .int(s.today)), ("thisWeek", .int(s.thisWeek)),
            ("topTag", .optional(s.topTag)), ("topTagCount", .int(s.topTagCount)),
            ("connections", .int(s.connections)), ("streakDays", .int(s.streakDays)),
            ("perType", .object(MemoryType.allCases.map { ($0.rawValue, .int(s.perType[$0.rawValue] ?? 0)) })),
            ("expiringSoon", .int(s.expiringSoon)), ("expired", .int(s.expired)), ("pinned", .int(s.pinned)),
            ("retention", .int(StatsFeed.retention(s))),
            ("curricula", .int(s.curricula)), ("topics", .int(s.topics)), ("topicsDone", .int(s.topicsDone)),
        ])
    }

    private func session(_ d: SessionDetail) -> JSONValue {
        let s = d.session
        return .object([
            ("id", .string(s.id)), ("kind", .string(s.kind.rawValue)), ("title", .string(s.title)),
            ("state", .string(s.state.rawValue)), ("started", .string(Timestamp.iso(s.started))),
            ("elapsedSeconds", .int(Int(saturating: d.elapsed.rounded(.down)))),
            ("progressDone", .int(s.progressDone)), ("progressTotal", .int(s.progressTotal)), ("progress", .int(s.percentage)),
            ("curriculumID", .optional(s.curriculumID)), ("topicID", .optional(s.topicID)),
        ])
    }
}
