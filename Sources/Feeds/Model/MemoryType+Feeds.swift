extension MemoryType {
    /// Reads the store's value; anything unknown is shown as a note rather than failing a bar.
    public init(storeValue: String) { self = MemoryType(rawValue: storeValue) ?? .note }

    /// How much this kind counts when choosing what to resurface.
    var importance: Double {
        switch self {
        case .learning: 1.3
        case .idea: 1.2
        case .quote: 1.1
        case .note: 1.0
        case .task: 0.9
        }
    }
}
