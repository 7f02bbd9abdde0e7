import Foundation

/// The names of every intent Engram understands.
public enum IntentName: String, Sendable, Codable, CaseIterable {
    case storeMemory = "StoreMemory"
    case queryMemory = "QueryMemory"
    case summarizeTopic = "SummarizeTopic"
    case showConnections = "ShowConnections"
    case dailyReview = "DailyReview"
    case memoryStats = "MemoryStats"
    case startSession = "StartSession"
    case pauseSession = "PauseSession"
    case resumeSession = "ResumeSession"
    case stopSession = "StopSession"
    case openCurriculum = "OpenCurriculum"
    case openTopic = "OpenTopic"
    case showAnalytics = "ShowAnalytics"
    case showHistory = "ShowHistory"
    case exportProgress = "ExportProgress"
    case relatedMemories = "RelatedMemories"
    case tagMemory = "TagMemory"
    case pinMemory = "PinMemory"
    case forgetMemory = "ForgetMemory"
}

/// A phrase template: literal words and `{slots}` naming parameters, plus arguments the wording itself implies.
public struct Phrase: Sendable, Equatable {
    /// E.g. "summarize {topic} this week".
    public var template: String
    /// Arguments fixed by the wording, e.g. `range = week` for "… this week".
    public var fixed: [String: String]

    /// Creates a phrase.
    public init(_ template: String, _ fixed: [String: String] = [:]) {
        self.template = template
        self.fixed = fixed
    }

    /// The slot names, in order.
    public var slots: [String] {
        var out: [String] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            out.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return out
    }
}

/// One intent as declared: what it does, its parameters, how to say it, and what it answers.
public struct IntentDefinition: Sendable {
    public var name: IntentName
    public var title: String
    public var summary: String
    public var parameters: [IntentParameter]
    public var phrases: [Phrase]
    /// The shape of the spoken result, e.g. "Found {count} memories about {query}."
    public var resultTemplate: String

    /// The parameter called `name`, if any.
    public func parameter(_ name: String) -> IntentParameter? { parameters.first { $0.name == name } }

    /// What running it does to the person's things: nothing, a change, or an erasure. Assistants see it as tool
    /// annotations; a state-changing intent runs from words only when they clearly say so.
    public var effect: IntentEffect {
        switch name {
        case .storeMemory, .startSession, .pauseSession, .resumeSession, .stopSession, .exportProgress, .tagMemory, .pinMemory:
            .changesState
        case .forgetMemory:
            .erases
        case .queryMemory, .summarizeTopic, .showConnections, .dailyReview, .memoryStats, .openCurriculum, .openTopic,
             .showAnalytics, .showHistory, .relatedMemories:
            .readOnly
        }
    }

    /// Whether running it twice with the same arguments leaves things as running it once does.
    public var isIdempotent: Bool {
        switch name {
        case .tagMemory, .pinMemory, .forgetMemory, .exportProgress: true
        default: effect == .readOnly
        }
    }
}

/// What running an intent does to the person's things.
public enum IntentEffect: String, Sendable, Codable {
    /// Reads only (a search, a summary, stats). Opening a curriculum or topic is read-only too.
    case readOnly
    /// Changes something that can be changed back (a capture, a session, tags, a pin, a file written).
    case changesState
    /// Erases something for good (forgetting a memory).
    case erases
}

/// The one declarative catalog every surface derives from: `engram ask`, D-Bus, KRunner, rofi, the desktop
/// entry's actions and the table in docs/intents-and-voice.md.
public enum IntentCatalog {
    /// Every intent, in the order people meet them.
    public static let all: [IntentDefinition] = [
        IntentDefinition(
            name: .storeMemory, title: "Store a memory", summary: "Capture a note, idea, task, quote or learning.",
            parameters: [
                IntentParameter("content", .text, "What to remember."),
                IntentParameter("type", .memoryType, default: "note", "note, idea, task, quote or learning."),
            ],
            phrases: [
                Phrase("remember {content}"), Phrase("remember that {content}"), Phrase("note {content}"),
                Phrase("save idea {content}", ["type": "idea"]), Phrase("add task {content}", ["type": "task"]),
                Phrase("save quote {content}", ["type": "quote"]), Phrase("i learned {content}", ["type": "learning"]),
            ],
            resultTemplate: "Remembered “{title}”."),
        IntentDefinition(
            name: .queryMemory, title: "Search memories", summary: "Find memories about something, optionally with related ones.",
            parameters: [
                IntentParameter("query", .text, "What to look for."),
                IntentParameter("limit", .integer, default: "10", "How many memories at most."),
                IntentParameter("includeRelated", .boolean, default: "false", "Also list memories linked to the best match."),
            ],
            phrases: [
                Phrase("what do i know about {query}"), Phrase("search for {query}"), Phrase("find {query}"),
                Phrase("search {query}"), Phrase("what do i know about {query} and related", ["includeRelated": "true"]),
                Phrase("show {limit} memories about {query}"),
            ],
            resultTemplate: "Found {count} memories about {query}."),
        IntentDefinition(
            name: .summarizeTopic, title: "Summarize a topic", summary: "An extractive summary of what you noted on a subject in a time range.",
            parameters: [
                IntentParameter("topic", .text, "The subject, as search words."),
                IntentParameter("range", .timeRange, default: "all", "today, week, month, year or all."),
            ],
            phrases: [
                Phrase("summarize {topic}"), Phrase("summarize {topic} today", ["range": "today"]),
                Phrase("summarize {topic} this week", ["range": "week"]), Phrase("summarize {topic} this month", ["range": "month"]),
                Phrase("summarize {topic} this year", ["range": "year"]),
                Phrase("what did i learn about {topic} this week", ["range": "week"]),
            ],
            resultTemplate: "Summary of {topic} from {count} memories."),
        IntentDefinition(
            name: .showConnections, title: "Show connections", summary: "The link graph around a memory.",
            parameters: [
                IntentParameter("memory", .memory, "The memory's id."),
                IntentParameter("depth", .integer, default: "2", "How many links away to go."),
            ],
            phrases: [
                Phrase("show connections of {memory}"), Phrase("show connections for {memory}"),
                Phrase("what is connected to {memory}"), Phrase("graph {memory}"),
            ],
            resultTemplate: "{title} has {count} connections within {depth} links."),
        IntentDefinition(
            name: .dailyReview, title: "Daily review", summary: "Memories close to fading, weakest first.",
            parameters: [IntentParameter("limit", .integer, default: "10", "How many memories at most.")],
            phrases: [Phrase("daily review"), Phrase("start my review"), Phrase("what should i review"), Phrase("review my memories")],
            resultTemplate: "{count} memories are due for review today."),
        IntentDefinition(
            name: .memoryStats, title: "Memory stats", summary: "Counts, streak and what is about to fade.",
            parameters: [],
            phrases: [Phrase("memory stats"), Phrase("show my stats"), Phrase("how many memories do i have")],
            resultTemplate: "You have {total} memories, {today} from today, and a {streak}-day streak."),
        IntentDefinition(
            name: .startSession, title: "Start studying", summary: "Start a learning session on a curriculum.",
            parameters: [
                IntentParameter("curriculum", .curriculum, "The curriculum, by id or title."),
                IntentParameter("topic", .topic, default: "", "Start at this topic (default: the first not done)."),
            ],
            phrases: [Phrase("start studying {curriculum}"), Phrase("study {curriculum}"), Phrase("start a session on {curriculum}")],
            resultTemplate: "Started {title}."),
        IntentDefinition(
            name: .pauseSession, title: "Pause the session", summary: "Pause the running session.",
            parameters: [], phrases: [Phrase("pause session"), Phrase("pause studying"), Phrase("take a break")],
            resultTemplate: "Paused {title} at {minutes} min."),
        IntentDefinition(
            name: .resumeSession, title: "Resume the session", summary: "Resume the paused session.",
            parameters: [], phrases: [Phrase("resume session"), Phrase("resume studying"), Phrase("continue studying")],
            resultTemplate: "Resumed {title} at {minutes} min."),
        IntentDefinition(
            name: .stopSession, title: "Stop the session", summary: "Stop the active session.",
            parameters: [], phrases: [Phrase("stop session"), Phrase("stop studying"), Phrase("end session")],
            resultTemplate: "Stopped {title} at {minutes} min."),
        IntentDefinition(
            name: .openCurriculum, title: "Open a curriculum", summary: "A curriculum's topics and progress.",
            parameters: [IntentParameter("curriculum", .curriculum, "The curriculum, by id or title.")],
            phrases: [Phrase("open curriculum {curriculum}"), Phrase("show curriculum {curriculum}"), Phrase("how far am i in {curriculum}")],
            resultTemplate: "{title}: {done} of {total} topics done."),
        IntentDefinition(
            name: .openTopic, title: "Open a topic", summary: "One topic of a curriculum.",
            parameters: [IntentParameter("topic", .topic, "The topic, by id or title.")],
            phrases: [Phrase("open topic {topic}"), Phrase("show topic {topic}")],
            resultTemplate: "{curriculum}, topic {position}: {title}."),
        IntentDefinition(
            name: .showAnalytics, title: "Learning analytics", summary: "Time per curriculum and topic, streak and progress.",
            parameters: [IntentParameter("range", .timeRange, default: "month", "today, week, month, year or all.")],
            phrases: [
                Phrase("show analytics"), Phrase("learning analytics"),
                Phrase("how much did i study this week", ["range": "week"]), Phrase("how much did i study today", ["range": "today"]),
            ],
            resultTemplate: "You studied {minutes} minutes {range} over {days} days; streak {streak} days."),
        IntentDefinition(
            name: .showHistory, title: "Session history", summary: "Recent learning sessions.",
            parameters: [IntentParameter("limit", .integer, default: "10", "How many sessions at most.")],
            phrases: [Phrase("show history"), Phrase("session history"), Phrase("what did i study")],
            resultTemplate: "{count} recent sessions, {minutes} minutes in all."),
        IntentDefinition(
            name: .exportProgress, title: "Export progress", summary: "Write curricula progress and study time to a Markdown or JSON file.",
            parameters: [
                IntentParameter("format", .text, default: "markdown", "markdown or json."),
                IntentParameter("path", .text, default: "", "Where to write (default: exports/ in the data folder)."),
            ],
            phrases: [Phrase("export progress"), Phrase("export my progress"), Phrase("export progress as {format}")],
            resultTemplate: "Exported progress on {count} curricula to {path}."),
        IntentDefinition(
            name: .relatedMemories, title: "Related memories", summary: "A memory's links, then memories alike in words and in meaning.",
            parameters: [
                IntentParameter("memory", .memory, "The memory's id."),
                IntentParameter("limit", .integer, default: "10", "How many memories at most."),
            ],
            phrases: [Phrase("related to {memory}"), Phrase("what is related to {memory}"), Phrase("memories like {memory}")],
            resultTemplate: "{count} memories related to {title}."),
        IntentDefinition(
            name: .tagMemory, title: "Tag a memory", summary: "Add and remove a memory's tags.",
            parameters: [
                IntentParameter("memory", .memory, "The memory's id."),
                IntentParameter("add", .text, default: "", "Tags to add, separated by commas or spaces."),
                IntentParameter("remove", .text, default: "", "Tags to remove, separated by commas or spaces."),
            ],
            phrases: [Phrase("tag {memory} with {add}"), Phrase("untag {memory} from {remove}")],
            resultTemplate: "{title}: {tags}."),
        IntentDefinition(
            name: .pinMemory, title: "Pin a memory", summary: "Pin a memory so it never fades, or unpin it.",
            parameters: [
                IntentParameter("memory", .memory, "The memory's id."),
                IntentParameter("pinned", .boolean, default: "true", "true to pin, false to unpin."),
            ],
            phrases: [Phrase("pin {memory}"), Phrase("unpin {memory}", ["pinned": "false"])],
            resultTemplate: "Pinned {title}."),
        IntentDefinition(
            name: .forgetMemory, title: "Forget a memory", summary: "Erase a memory everywhere it was copied; needs confirm = true.",
            parameters: [
                IntentParameter("memory", .memory, "The memory's id."),
                IntentParameter("confirm", .boolean, default: "false", "Must be true: forgetting cannot be undone."),
            ],
            // No phrase: words never forget anything; only a caller that names the memory and confirms does.
            phrases: [],
            resultTemplate: "Forgot {title}."),
    ]

    /// The definition of `name`.
    public static func definition(_ name: IntentName) -> IntentDefinition {
        all.first { $0.name == name }!
    }

    /// The definition whose name matches `text` (case-insensitively), if any.
    public static func definition(named text: String) -> IntentDefinition? {
        all.first { $0.name.rawValue.lowercased() == text.lowercased() }
    }
}
