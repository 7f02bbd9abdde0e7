import Foundation

/// A next step offered with a result ("Summarize them", "Show all"), as data a notification can turn into actions.
public struct FollowUp: Sendable, Codable, Equatable {
    /// A stable key (a notification action key).
    public var id: String
    /// The button text.
    public var label: String
    /// The intent to run, and its arguments.
    public var intent: IntentName
    public var arguments: [String: String]
}

/// One item a result lists: a memory, curriculum, topic or session.
public struct ResultItem: Sendable, Codable, Equatable {
    public var kind: String
    public var id: String
    public var title: String
    /// Extra words shown under the title.
    public var detail: String?
    /// The `engram://` link that opens it, if any.
    public var url: String?
    /// A search hit's tags, creation date (ISO 8601), whether it was found by meaning, and its link count.
    public var tags: [String]? = nil
    public var created: String? = nil
    public var byMeaning: Bool? = nil
    public var links: Int? = nil
}

/// What running an intent did: a sentence to show or speak, the items it found, details and follow-ups.
public struct IntentResult: Sendable, Codable, Equatable {
    public var intent: IntentName
    /// One spoken-style sentence, e.g. "Found 12 memories about sourdough. Summarize them, or show all?"
    public var sentence: String
    public var items: [ResultItem] = []
    /// Extra text lines (a summary's sentences, a graph, a table).
    public var lines: [String] = []
    public var followUps: [FollowUp] = []
    /// A file the intent wrote, if any.
    public var path: String?
    /// The graph, for ShowConnections.
    public var graph: ConnectionGraph?
    /// The summary, for SummarizeTopic.
    public var summary: Summary?
    /// The analytics, for ShowAnalytics.
    public var analytics: LearningAnalytics?
    /// When Engram asks instead of acting: the question, its options (also the follow-ups) or the missing slot.
    public var clarification: Clarification?

    /// Creates a result.
    public init(intent: IntentName, sentence: String) {
        self.intent = intent
        self.sentence = sentence
    }

    /// Engram's question instead of a result: nothing was run.
    public init(clarifying c: Clarification) {
        self.init(intent: c.intent ?? .queryMemory, sentence: c.question)
        clarification = c
        followUps = c.followUps
    }

    /// The result as one line of JSON (versioned schema).
    public func json() throws -> String {
        struct Envelope: Encodable { var schema = 1; var result: IntentResult }
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        e.dateEncodingStrategy = .iso8601
        return String(decoding: try e.encode(Envelope(result: self)), as: UTF8.self)
    }
}
