import ArgumentParser
import EngramCore
import Foundation
import EngramApp
import Indexer

/// Terminal I/O shared by the commands: errors, progress, colour and stdin.
enum Terminal {
    /// Whether standard output is a terminal.
    static let stdoutIsTTY = isatty(1) == 1
    /// Whether standard error is a terminal.
    static let stderrIsTTY = isatty(2) == 1

    /// Prints `message` to standard error as `engram: message`.
    /// Whether a person is at this terminal to answer a question (standard input and output both a terminal).
    static var isInteractive: Bool { isatty(0) == 1 && isatty(1) == 1 }

    /// `text` as one word for a POSIX shell (single-quoted when it needs to be).
    static func shellQuoted(_ text: String) -> String {
        guard text.contains(where: { !($0.isLetter || $0.isNumber || "=-_./:,".contains($0)) }) else { return text }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    static func warn(_ message: String) {
        FileHandle.standardError.write(Data(("engram: " + safe(message) + "\n").utf8))
    }

    /// Writes text to standard output without a trailing newline.
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Runs `body`, turning Engram and index errors into a one-line message and a meaningful exit status.
    static func reporting<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let e as EngramError {
            warn(e.description)
            throw ExitCode(e.exitCode)
        } catch let e as IndexError {
            warn(e.description)
            switch e {
            case .locked: throw ExitCode(75)
            case .queryParse, .invalidArgument: throw ExitCode(65)
            case .notFound: throw ExitCode(66)
            default: throw ExitCode(74)
            }
        }
    }

    /// Reads all of standard input, refusing invalid UTF-8 unless `lossy`.
    static func readStdin(lossy: Bool) throws -> String {
        let data = FileHandle.standardInput.readDataToEndOfFile()
        return try TextInput.decode(data, lossy: lossy, what: "standard input")
    }

    /// A progress reporter that draws a bar on standard error when it is a terminal, and stays quiet otherwise.
    static func progress(_ label: String) -> ((Int, Int) -> Void)? {
        guard stderrIsTTY else { return nil }
        var last = Date.distantPast
        return { done, total in
            let now = Date()
            guard done >= total || now.timeIntervalSince(last) > 0.05 else { return }
            last = now
            let width = 30
            let frac = total > 0 ? min(1, Double(done) / Double(total)) : 1
            let filled = Int(frac * Double(width))
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            var line = "\r\(label) ▕\(bar)▏ \(done)/\(total)"
            if done >= total { line += "\n" }
            FileHandle.standardError.write(Data(line.utf8))
        }
    }

    /// Text styles, applied only on a terminal.
    enum Style: String {
        case bold = "1", dim = "2", highlight = "1;33", id = "36"
    }

    /// `text` wrapped in an ANSI style when standard output is a terminal.
    static func styled(_ text: String, _ style: Style) -> String {
        stdoutIsTTY ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// Removes terminal control characters from stored text so it cannot drive the terminal.
    static func safe(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { s in
            (s.value < 0x20 && s != "\n" && s != "\t") || s.value == 0x7F || (0x80...0x9F).contains(s.value) ? "\u{FFFD}" : s
        }))
    }

    /// Prints a JSON value on one line.
    static func printJSON<T: Encodable>(_ value: T) throws {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        e.dateEncodingStrategy = .custom { date, enc in
            var c = enc.singleValueContainer()
            try c.encode(ISODate.format(date))
        }
        write(String(decoding: try e.encode(value), as: UTF8.self) + "\n")
    }
}
