/// The kinds of item the index holds; each kind is a separate domain that can be searched or deleted as a whole.
public enum IndexKind: String, Sendable, CaseIterable, Codable {
    /// A captured memory (note, idea, task, quote, learning).
    case memory
    /// A learning curriculum.
    case curriculum
    /// A topic inside a curriculum.
    case topic
}
