import EngramRules
import Testing

@Suite struct MemoryTypeTests {
    @Test func typesAreTheStoreNamesInTheirOrder() {
        #expect(MemoryType.allCases.map(\.rawValue) == ["note", "idea", "task", "quote", "learning"])
        #expect(MemoryType.allCases.sorted() == MemoryType.allCases)
        #expect(MemoryType.note < .learning)
    }

    @Test func eachTypeHasItsOwnLabelIconAndSymbol() {
        #expect(MemoryType.allCases.map(\.plural) == ["notes", "ideas", "tasks", "quotes", "learnings"])
        #expect(Set(MemoryType.allCases.map(\.iconName)).count == MemoryType.allCases.count)
        #expect(Set(MemoryType.allCases.map(\.symbol)).count == MemoryType.allCases.count)
        #expect(MemoryType.allCases.allSatisfy { $0.symbol.count == 1 })
    }
}
