import DBus
import EngramCore
import EngramTestSupport
import Foundation
import Testing

/// Meaning search on every surface, with the real model (`make model`, part of `make test`): a question that shares
/// no word with a memory finds it in `engram search`, GNOME Shell's provider, KRunner and D-Bus `Search`, each saying
/// it was found by meaning; `Perform` understands a paraphrase.
@Suite struct MeaningSurfaceTests {
    typealias D = DaemonFixture
    static let model = D.root + "/.build/model"
    static let notes = [
        "First whole wheat loaf came out gummy: cut too early and under-proofed.",
        "Renew the car insurance before the end of March.",
        "Kubernetes pods restart when the liveness probe fails too often.",
        "Call grandma on Sunday afternoon.",
    ]
    static let question = "my homemade bread was sticky inside"

    @Test func aMeaningOnlyMatchReachesEverySurface() async throws {
        #expect(FileManager.default.fileExists(atPath: Self.model + "/libe5.so"),
                "the meaning model is not installed in .build/model: run `make model` (make test does)")
        try await withDaemon(samples: false, config: "[search]\nmodel_dir = \"\(Self.model)\"\n") { d in
            var ids: [String] = []
            for note in Self.notes {
                let out = try d.engram(["remember", "--json", note])
                let json = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any], "\(out.stderr)")
                ids.append(try #require(json["id"] as? String))
            }
            let loaf = ids[0]
            // No daemon yet: the command indexed and embedded its few memories itself.
            let status = try d.engram(["index", "status", "--json"])
            #expect(status.stdout.contains("\"embedded\":4") || status.stdout.contains("\"embedded\" : 4"), "\(status.stdout)")

            // engram search
            let cli = try d.engram(["search", "--json", "--", Self.question])
            let found = (try JSONSerialization.jsonObject(with: Data(cli.stdout.utf8)) as? [String: Any])?["results"] as? [[String: Any]] ?? []
            #expect(found.first?["id"] as? String == loaf, "\(cli.stdout)")
            #expect(found.first?["byMeaning"] as? Bool == true)

            // GNOME Shell: the terms as the shell splits them; the description says why the row is there. On a busy
            // machine (tests in parallel) the first answer may come before the question's embedding, by words; the
            // shell's next call for it (the next keystroke) has its vector.
            var gnome: [String] = []
            #expect(try await eventually(timeout: .seconds(10)) {
                gnome = try d.initialResultSet(Self.question.split(separator: " ").map(String.init))
                return gnome.first == "engram://memory/\(loaf)"
            }, "\(gnome)")
            let metas = try d.gdbusValue(D.providerPath, D.provider, "GetResultMetas", ["['engram://memory/\(loaf)']"]).first as? [[String: Any]]
            #expect((metas?.first?["description"] as? String)?.hasPrefix("By meaning · ") == true, "\(String(describing: metas))")

            // KRunner
            let matches = try d.gdbusValue(D.runnerPath, D.runner, "Match", ["'\(Self.question)'"]).first as? [[Any]] ?? []
            #expect(matches.first?.first as? String == "engram://memory/\(loaf)", "\(matches)")

            // D-Bus Search
            let search = try d.gdbusValue(D.appPath, D.app, "Search", ["'\(Self.question)'", "uint32 5"]).first as? [[String: Any]] ?? []
            #expect(search.first?["url"] as? String == "engram://memory/\(loaf)", "\(search)")
            #expect(search.first?["by_meaning"] as? Bool == true)

            // Perform: a paraphrase no template matches reaches StoreMemory with its slot.
            let perform = try d.gdbusValue(D.appPath, D.app, "Perform", ["'make a note that the car needs new tyres'"])
            #expect((perform.first as? String)?.contains("the car needs new tyres") == true, "\(perform)")
        }
    }

    /// A new question's embedding (sixty words: some 60 ms on two cores) holds no other caller: eight such questions
    /// sent to GNOME Shell's provider at once, then, once the first is answered, a one-word search, which is answered
    /// before the last question is. When the bus thread embedded each question itself, it waited behind all of them.
    /// (The daemon waits for every question's embedding here, `ENGRAM_BUSY_DEADLINE_MS=0`, the default: eight
    /// questions at once make the machine busy, and past a deadline it would answer them before their embeddings.)
    @Test func aNewQuestionsEmbeddingHoldsNoOtherCaller() async throws {
        try await withDaemon(samples: false, config: "[search]\nmodel_dir = \"\(Self.model)\"\n",
                             environment: ["ENGRAM_BUSY_DEADLINE_MS": "0"]) { d in
            for note in Self.notes { _ = try d.engram(["remember", note]) }
            // Meaning search on in the daemon before the burst: every note embedded, and a question found by meaning.
            #expect(try await eventually(timeout: .seconds(120)) {
                let status = try d.engram(["index", "status", "--json"]).stdout
                return status.contains("\"embedded\":4") || status.contains("\"embedded\" : 4")
            })
            #expect(try await eventually(timeout: .seconds(30)) {
                try d.initialResultSet(Self.question.split(separator: " ").map(String.init)).first?.hasPrefix("engram://memory/") == true
            }, "the daemon finds the loaf by meaning")
            #expect(try d.initialResultSet(["insurance"]).count == 1, "the daemon answers a word search")
            let sentence = "why would a sourdough loaf that rose well overnight in a cold kitchen still come out dense, "
                + "gummy and sticky in the middle after an hour in a hot oven with steam and a long cool on the rack, "
            let finished = Collector<String>()
            let questions = (1...8).map { n in
                Thread.detachNewThread {
                    // Sixty words, a new question each (its ordinal among them), as many terms as GNOME Shell sends
                    // (up to 64).
                    let ordinal = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"][n - 1]
                    let terms = ["my", ordinal, "question:"] + String(repeating: sentence, count: 2).split(separator: " ")
                        .prefix(57).map(String.init)
                    let t0 = Date()
                    let out = try? d.gdbus(D.providerPath, D.provider, "GetInitialResultSet", [D.gvariantStrings(terms)])
                    finished.append("question \(n): \(Int(Date().timeIntervalSince(t0) * 1000)) ms, status \(out?.status ?? -1)")
                }
                return n
            }
            // Once the first question is answered the other seven are still to embed (some 400 ms); the word search
            // goes then, from a thread of its own (the test's tasks may wait behind other suites' on a busy machine).
            let words = try await onThread { () -> [String] in
                while finished.all.isEmpty { usleep(2000) }
                let tw = Date()
                let found = try d.initialResultSet(["insurance"])
                finished.append("words: \(Int(Date().timeIntervalSince(tw) * 1000)) ms")
                return found
            }
            #expect(words.count == 1, "\(words)")
            #expect(await eventually(timeout: .seconds(60)) { finished.all.count == questions.count + 1 }, "\(finished.all)")
            print("order of the replies:", finished.all)
            #expect(finished.all.count == 9 && !finished.all.last!.hasPrefix("words"),
                    "the word search waited for every question's embedding: \(finished.all)")
        }
    }
}
