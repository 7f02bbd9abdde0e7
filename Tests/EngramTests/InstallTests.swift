import Foundation
import Testing

/// What `make` and `make install` give a person: a clear stop without Swift, completions and man pages that
/// cover every command the parser knows.
@Suite(.serialized) struct InstallTests {
    /// A command of the parser, from `engram --experimental-dump-help` (what generate-manual renders).
    struct Command {
        var path: [String]
        var abstract: String
        var shown: Bool
        var subcommands: [String]
    }

    /// Every command of the parser, the root first.
    func commands() throws -> [Command] {
        let out = try EngramProcess.exec(EngramProcess.binary, ["--experimental-dump-help"])
        #expect(out.status == 0, "\(out.stderr)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
        var all: [Command] = []
        func walk(_ command: [String: Any], _ parent: [String]) {
            let path = parent + [command["commandName"] as? String ?? ""]
            let subs = command["subcommands"] as? [[String: Any]] ?? []
            all.append(Command(path: path, abstract: command["abstract"] as? String ?? "", shown: command["shouldDisplay"] as? Bool ?? true,
                               subcommands: subs.compactMap { $0["commandName"] as? String }))
            for sub in subs { walk(sub, path) }
        }
        walk(try #require(root["command"] as? [String: Any]), [])
        return all
    }

    /// The subcommands `engram PATH --help` lists.
    func listedSubcommands(_ path: [String]) throws -> Set<String> {
        let help = try EngramProcess.exec(EngramProcess.binary, Array(path.dropFirst()) + ["--help"])
        guard let start = help.stdout.range(of: "SUBCOMMANDS:\n") else { return [] }
        let section = help.stdout[start.upperBound...].components(separatedBy: "\n\n")[0]
        return Set(section.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let name = line.split(separator: " ").first else { return nil }
            return String(name)
        })
    }

    @Test func theManualCoversEveryCommand() throws {
        let all = try commands()
        #expect(all.count >= 40, "\(all.map { $0.path.joined(separator: " ") })")
        for command in all {
            #expect(!command.abstract.isEmpty, "\(command.path.joined(separator: " ")) has no NAME line for its man page")
            if !command.subcommands.isEmpty && command.shown {
                // `help` is ArgumentParser's own; hidden commands are left out of --help.
                let shown = Set(all.filter { $0.path.dropLast() == command.path[...] && $0.shown }.map { $0.path.last! })
                #expect(try listedSubcommands(command.path) == shown.subtracting(["help"]), "\(command.path)")
            }
        }
        // With generate-manual built (make install, make man and the install end-to-end test build it), one page each.
        let tool = URL(fileURLWithPath: EngramProcess.binary).deletingLastPathComponent().appendingPathComponent("generate-manual").path
        try #require(FileManager.default.isExecutableFile(atPath: tool),
                     "generate-manual is not built beside engram (\(tool)): make test builds it (swift build --product generate-manual)")
        let out = NSTemporaryDirectory() + "engram-man-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: out) }
        let made = try EngramProcess.exec(tool, [EngramProcess.binary, "--multi-page", "--output-directory", out])
        #expect(made.status == 0, "\(made.stderr)")
        let pages = Set(try FileManager.default.contentsOfDirectory(atPath: out))
        #expect(pages == Set(all.map { $0.path.joined(separator: ".") + ".1" }))
    }

    @Test func theCompletionsOfferEverySubcommandAndParse() throws {
        let all = try commands()
        for shell in ["bash", "zsh", "fish"] {
            let out = try EngramProcess.exec(EngramProcess.binary, ["--generate-completion-script", shell])
            #expect(out.status == 0, "\(shell): \(out.stderr)")
            let script = out.stdout
            for command in all where command.shown && command.path.count > 1 && command.path.last != "help" {
                let name = command.path.last!, parent = command.path.dropLast().joined(separator: " ")
                let offered: Bool
                switch shell {
                case "bash":  // the parent's function offers it: compgen -W '… name …'
                    offered = script.split(separator: "\n").contains { $0.contains("compgen -W '") && $0.split(whereSeparator: { " '".contains($0) }).contains(Substring(name)) }
                case "zsh":  // 'name:abstract' in the parent's list
                    offered = script.contains("'\(name):")
                default:  // complete -c engram -n '… "engram parent" …' -fa 'name'
                    offered = script.split(separator: "\n").contains { $0.contains("\"\(parent)\"") && $0.contains("-fa '\(name)'") }
                }
                #expect(offered, "\(shell) does not complete \(command.path.joined(separator: " "))")
            }
            let file = NSTemporaryDirectory() + "engram-completion-\(UUID().uuidString).\(shell)"
            try script.write(toFile: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: file) }
            let interpreter = shell == "bash" ? "/bin/bash" : "/usr/bin/\(shell)"
            try #require(FileManager.default.isExecutableFile(atPath: interpreter),
                         "\(shell) is not installed, so its completion script cannot be parsed: make test installs it (scripts/install-deps.sh)")
            let check = try EngramProcess.exec(interpreter, ["-n", file])
            #expect(check.status == 0, "\(shell) -n: \(check.stderr)")
        }
    }

    /// `make run` and `make test` on a machine without Swift: the first thing said is what to install and where.
    @Test func makeWithoutSwiftSaysWhereToGetItFirst() throws {
        // As a person types it: not a sub-make of the make that runs these tests (whose level and flags would make
        // it print "Entering directory").
        var env = ProcessInfo.processInfo.environment
        for name in ["MAKEFLAGS", "MAKELEVEL", "MFLAGS", "MAKEOVERRIDES"] { env.removeValue(forKey: name) }
        let out = try EngramProcess.exec("/usr/bin/make", ["-C", EngramProcess.root, "-s", "build", "SWIFT=no-such-swift"], env: env)
        #expect(out.status != 0)
        #expect(out.stdout.isEmpty, "nothing may run before the message: \(out.stdout)")
        #expect(out.stderr.hasPrefix("engram: cannot build: no `no-such-swift` on PATH."), "\(out.stderr)")
        #expect(out.stderr.contains("https://www.swift.org/install/linux/") && out.stderr.contains("debian12"))
        #expect(!out.stderr.contains("installing"), "apt ran before the Swift check")
        // The README's quick start stays two commands.
        let readme = try String(contentsOfFile: EngramProcess.root + "/README.md", encoding: .utf8)
        let quick = try #require(readme.range(of: "## Quick start")).upperBound
        let block = readme[quick...].components(separatedBy: "```")[1]
        #expect(block.split(separator: "\n").filter { !$0.hasPrefix("sh") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }.count == 2)
    }
}
