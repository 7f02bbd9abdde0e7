import EngramCore
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Intents
import Testing

struct PhraseTests {
    static let slotSamples = ["content": "Buy rye flour", "query": "sourdough starter", "topic": "actors", "memory": "s004",
                              "curriculum": "swift-concurrency", "limit": "5", "format": "json",
                              "add": "rye", "remove": "stale"]

    static let everyPhrase: [(IntentName, Phrase)] = IntentCatalog.all.flatMap { d in d.phrases.map { (d.name, $0) } }

    /// Every phrase in the catalog, said with sample values, reaches its own intent with the values in the right slots.
    @Test(arguments: everyPhrase.indices)
    func everyCatalogPhraseMatchesItsIntent(_ i: Int) throws {
        let (name, phrase) = Self.everyPhrase[i]
        var said = phrase.template
        for slot in phrase.slots { said = said.replacingOccurrences(of: "{\(slot)}", with: Self.slotSamples[slot]!) }
        let got = try PhraseMatcher().match(said)
        #expect(got.name == name, "“\(said)” went to \(got.name.rawValue)")
        for slot in phrase.slots { #expect(got.arguments[slot] == Self.slotSamples[slot], "slot \(slot) of “\(said)”") }
        for (k, v) in phrase.fixed { #expect(got.arguments[k] == v, "“\(said)” should set \(k)=\(v)") }
    }

    @Test func phrasesAreForgivingAboutCaseSpacesAndPunctuation() throws {
        let m = PhraseMatcher()
        let got = try m.match("  Remember   that Rye needs MORE water?  ")
        #expect(got.name == .storeMemory)
        #expect(got.arguments["content"] == "Rye needs MORE water")  // the content keeps its case
        #expect(try m.match("What do I know about Xapian?").arguments["query"] == "Xapian")
        #expect(try m.match("hey engram, daily review please").name == .dailyReview)
    }

    @Test func theMostSpecificPhraseWins() throws {
        let m = PhraseMatcher()
        let week = try m.match("summarize sourdough this week")
        #expect(week.name == .summarizeTopic && week.arguments["topic"] == "sourdough" && week.arguments["range"] == "week")
        let related = try m.match("what do I know about actors and related")
        #expect(related.arguments["query"] == "actors" && related.arguments["includeRelated"] == "true")
        #expect(try m.match("search for actors").arguments["query"] == "actors")
        #expect(try m.match("save idea a rofi mode for intents").arguments["type"] == "idea")
    }

    @Test func numbersInWordsAndDigits() throws {
        let m = PhraseMatcher()
        #expect(try m.match("show 3 memories about git").arguments["limit"] == "3")
        let inv = try m.match("show three memories about git")
        #expect(try inv.resolved()["limit"] == "3")
    }

    @Test(arguments: [
        ("rememberr to buy milk", IntentName.storeMemory),
        ("sumarize sourdough", .summarizeTopic),
        ("what do I now about actors", .queryMemory),
        ("start studyng spanish", .startSession),
        ("show analytic", .showAnalytics),
        ("pause the session", .pauseSession),
    ])
    func nearMissesSayNothingMatchedAndSuggestTheClosest(_ said: String, _ closest: IntentName) throws {
        do {
            let got = try PhraseMatcher().match(said)
            Issue.record("“\(said)” should not match, but went to \(got.name.rawValue)")
        } catch let e as IntentError {
            guard case .noMatch(_, let near) = e else { Issue.record("wrong error \(e)"); return }
            #expect(near?.0 == closest, "closest to “\(said)” was \(near?.0.rawValue ?? "none")")
            #expect(e.description.contains("nothing matches “\(said)”"))
            #expect(e.description.contains("Closest: \(closest.rawValue)"))
        }
    }

    @Test func gibberishGetsNoSuggestionButAPointerToTheList() {
        #expect(throws: IntentError.noMatch(phrase: "xyzzy plugh", closest: nil)) { try PhraseMatcher().match("xyzzy plugh") }
        #expect(IntentError.noMatch(phrase: "xyzzy", closest: nil).description.contains("engram ask --list"))
    }

    @Test func userPhrasesFromConfigJoinTheCatalog() throws {
        let config = try ShortcutConfig.parse("""
            [phrases]
            "brain dump {content}" = "StoreMemory"
            "how is {curriculum} going" = "OpenCurriculum"
            """)
        let m = PhraseMatcher(userPhrases: config.phrases.map { ($0.template, $0.intent) })
        #expect(try m.match("brain dump call the plumber") == IntentInvocation(.storeMemory, ["content": "call the plumber"]))
        #expect(try m.match("how is spanish going").name == .openCurriculum)
    }

    @Test func badUserPhrasesSayWhatToFix() {
        #expect(throws: EngramError.self) { try ShortcutConfig.parse("[phrases]\n\"x {content}\" = \"Remember\"\n") }
        do {
            _ = try ShortcutConfig.parse("[phrases]\n\"brain dump {text}\" = \"StoreMemory\"\n")
            Issue.record("a slot the intent does not have must be refused")
        } catch {
            #expect("\(error)".contains("StoreMemory has no parameter {text}"))
        }
    }

    @Test func missingOrMalformedArgumentsAreRefusedClearly() throws {
        #expect(throws: EngramError.invalidInput("StoreMemory needs content: What to remember.")) { try IntentInvocation(.storeMemory).resolved() }
        #expect(throws: EngramError.self) { try IntentInvocation(.queryMemory, ["query": "x", "limit": "lots"]).resolved() }
        #expect(throws: EngramError.self) { try IntentInvocation(.dailyReview, ["colour": "red"]).resolved() }
        #expect(try IntentInvocation(.queryMemory, ["query": "x"]).resolved() as [String: String] == ["query": "x", "limit": "10", "includeRelated": "false"])
    }
}

struct ReadmeTableTests {
    /// docs/intents-and-voice.md's table of intents is the catalog's: `engram ask --list --markdown` regenerates it.
    @Test func readmeTableEqualsTheCatalog() throws {
        let readme = try String(contentsOfFile: repositoryRoot + "/docs/intents-and-voice.md", encoding: .utf8)
        let table = IntentCatalog.markdownTable()
        #expect(readme.contains(table), "docs/intents-and-voice.md's intents table differs from the catalog; paste `engram ask --list --markdown` into docs/intents-and-voice.md")
        for d in IntentCatalog.all { #expect(table.contains("| \(d.name.rawValue) |")) }
    }
}

struct DBusShapeTests {
    /// The daemon's per-intent methods come from the catalog: one typed argument per parameter, defaults for empties.
    @Test func perIntentMethodSignaturesFollowTheCatalog() throws {
        let q = IntentCatalog.definition(.queryMemory)
        #expect(q.dbusInSignature == "sib")
        #expect(try q.invocation(dbusArguments: ["actors", "-1", "true"]).resolved() == ["query": "actors", "limit": "10", "includeRelated": "true"])
        #expect(IntentCatalog.definition(.dailyReview).dbusInSignature == "i")
        let xml = IntentCatalog.dbusMethodsXML
        #expect(xml.contains("<method name=\"Perform\">"))
        for d in IntentCatalog.all { #expect(xml.contains("<method name=\"\(d.name.rawValue)\">")) }
    }

    /// The interface file holds the catalog's methods as generated, and is XML a parser takes (two dashes in a row
    /// inside a comment are not: gdbus-codegen and Qt's qdbusxml2cpp would refuse the file).
    @Test func theInterfaceFileHoldsTheCatalogAndParses() throws {
        let path = repositoryRoot + "/Desktop/dbus-1/interfaces/org.engram.Engram1.xml"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(IntentCatalog.dbusMethodsXML), "paste `engram ask --list --dbus-xml` into \(path)")
        let parser = XMLParser(data: Data(text.utf8))
        #expect(parser.parse(), "\(path): \(parser.parserError.map { "\($0)" } ?? "not XML") at line \(parser.lineNumber)")
    }
}

/// What the catalog generates for the desktop stays in the repository's files, and launcher commands round-trip.
struct GeneratedFilesTests {
    /// The desktop entry's actions are the catalog's argument-free intents (right-click on Engram's icon).
    @Test func desktopEntryActionsAreTheCatalogs() throws {
        let entry = try String(contentsOfFile: repositoryRoot + "/Desktop/applications/org.engram.Engram.desktop.in", encoding: .utf8)
        let start = try #require(entry.range(of: "\nActions="))
        #expect(String(entry[entry.index(after: start.lowerBound)...]) == IntentCatalog.desktopActions(),
                "regenerate with `engram ask --list --desktop-actions`")
        let ids = IntentCatalog.desktopActionIntents.map(\.desktopActionID)
        #expect(ids.contains("daily-review") && ids.contains("pause-session") && !ids.contains("store-memory"))
        #expect(Set(ids).count == ids.count)
    }

    /// The interface file holds exactly the catalog's methods, so introspection (checked by DaemonTests) and the file agree.
    @Test func interfaceXMLHoldsTheCatalogsMethods() throws {
        let xml = try String(contentsOfFile: repositoryRoot + "/Desktop/dbus-1/interfaces/org.engram.Engram1.xml", encoding: .utf8)
        #expect(xml.contains(IntentCatalog.dbusMethodsXML), "regenerate with `engram ask --list --dbus-xml`")
    }

    @Test func commandIDsCarryTheInvocationBack() throws {
        let tricky = IntentInvocation(.storeMemory, ["content": "a & b = c + d? 50% ✓ #1", "type": "idea"])
        #expect(try IntentInvocation(commandID: tricky.commandID) == tricky)
        #expect(tricky.commandID.hasPrefix("intent:StoreMemory?"))
        #expect(try IntentInvocation(commandID: IntentInvocation(.dailyReview).commandID) == IntentInvocation(.dailyReview))
        #expect(tricky.label == "Store a memory: “a & b = c + d? 50% ✓ #1”, type idea")
        for bad in ["engram://memory/s001", "intent:Nope", "intent:QueryMemory?limit=many&query=x", "intent:StoreMemory?colour=red&content=x"] {
            #expect(throws: (any Error).self, "\(bad)") { try IntentInvocation(commandID: bad) }
        }
    }
}
