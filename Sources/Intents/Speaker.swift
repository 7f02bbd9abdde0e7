import EngramCore
import Foundation

/// Reads a sentence aloud with `spd-say` or `espeak-ng`, whichever is installed; the sentence is one argv
/// element after `--`, never passed through a shell.
public enum Speaker {
    /// The speech program and the arguments that precede the sentence, if one is installed.
    public static func command(path: String? = ProcessInfo.processInfo.environment["PATH"]) -> (String, [String])? {
        if let s = Spawner.find("spd-say", path: path) { return (s, ["--wait", "--"]) }
        if let e = Spawner.find("espeak-ng", path: path) { return (e, ["--"]) }
        return nil
    }

    /// Speaks `sentence`; throws a clear error when no speech program is installed.
    public static func speak(_ sentence: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) throws {
        guard let (exe, args) = command(path: path) else {
            throw EngramError.notFound("nothing to speak with; `apt install speech-dispatcher` (spd-say) or `apt install espeak-ng`")
        }
        let clean = String(sentence.unicodeScalars.filter { $0.value >= 0x20 || $0 == "\n" }.map(Character.init))
        let r = try Executables.run(exe, args + [clean])
        guard r.status == 0 else { throw EngramError.io("\((exe as NSString).lastPathComponent) failed (\(r.status)): \(r.stderr.prefix(200))") }
    }
}
