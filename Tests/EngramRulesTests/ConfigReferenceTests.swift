import EngramRules
import Foundation
import Testing

/// The configuration reference (`engram config keys`, docs/configuration.md) says what the sections read: each
/// documented key is one its section knows, its documented default is the default, and every key a section's
/// reader takes is documented.
@Suite struct ConfigReferenceTests {
    @Test func everyDocumentedKeyIsKnownAndItsDefaultIsTheDefault() throws {
        for section in ConfigSections.all { try check(section) }
    }

    func check<S: ConfigSection>(_: S.Type) throws {
        #expect(!S.keys.isEmpty && !S.summary.isEmpty, "[\(S.sectionName)] has no keys or summary")
        #expect(Set(S.keys.map(\.name)).count == S.keys.count, "[\(S.sectionName)] lists a key twice")
        for key in S.keys {
            if let value = key.defaultValue {
                var section = S()
                try section.read(key.name, value)
                #expect(section == S(), "[\(S.sectionName)] \(key.name): the documented default \(value.toml) is not the default")
            } else {
                #expect(!key.unset.isEmpty, "[\(S.sectionName)] \(key.name) has no default and does not say what unset means")
            }
            var section = S()
            try section.read(key.name, key.example)
            #expect(section != S(), "[\(S.sectionName)] \(key.name) = \(key.example.toml) changed nothing: the section does not read this key")
        }
    }

    @Test func everyKeyTheReadersTakeIsDocumented() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/EngramRules/Config")
        // The keys the readers switch on (`case "name":` at a reader's first level, `key == "name"`).
        let pattern = try NSRegularExpression(pattern: #"^        case "([a-z_]+)"|key == "([a-z_]+)""#, options: [.anchorsMatchLines])
        var read = Set(PrivacySettings.integrations)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            for m in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                for group in 1...2 {
                    if let r = Range(m.range(at: group), in: text) { read.insert(String(text[r])) }
                }
            }
        }
        let documented = Set(ConfigSections.all.flatMap { $0.keys.map(\.name) })
        #expect(read.count >= 25, "the scan found only \(read.sorted())")
        #expect(read.subtracting(documented).isEmpty, "read but not in the reference: \(read.subtracting(documented).sorted())")
        #expect(documented.subtracting(read).isEmpty, "in the reference but read by no section: \(documented.subtracting(read).sorted())")
    }

    @Test func valuesAreWrittenAsTheFileHoldsThem() {
        #expect(ConfigValue.number(10).toml == "10" && ConfigValue.number(0.8).toml == "0.8")
        #expect(ConfigValue.string("say \"hi\"").toml == #""say \"hi\"""#)
        #expect(ConfigValue.list([.string("kgx"), .string("--")]).toml == #"["kgx", "--"]"#)
        #expect(ConfigValue.table(["task": .number(7), "note": .number(30)]).toml == "{ note = 30, task = 7 }")
    }
}
