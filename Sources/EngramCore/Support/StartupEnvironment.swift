import Foundation
import Synchronization

/// What a program started for the person is told about the click or key press that started it, so its window may take
/// focus: `XDG_ACTIVATION_TOKEN` for Wayland's xdg-activation and `DESKTOP_STARTUP_ID` for X11 startup notification.
///
/// Both are set from an activation token when there is one (a notification server's `ActivationToken`). With only the
/// X11 timestamp of the user's action (GNOME Shell's `ActivateResult` and `LaunchSearch`), `DESKTOP_STARTUP_ID` carries
/// it the freedesktop way, `…_TIME<timestamp>`; an xdg-activation token cannot be made from a timestamp, so
/// `XDG_ACTIVATION_TOKEN` is left out. The values inherited from whoever started us are always dropped: they named
/// an earlier action, and a stale one would let the wrong window steal focus or be refused it.
public enum StartupEnvironment {
    public static let activationTokenKey = "XDG_ACTIVATION_TOKEN"
    public static let startupIDKey = "DESKTOP_STARTUP_ID"

    /// `base` with the inherited startup variables replaced: both set to `activationToken` if given, else
    /// `DESKTOP_STARTUP_ID` set to `startupID` if given.
    public static func environment(_ base: [String: String], activationToken: String? = nil,
                                   startupID: String? = nil) -> [String: String] {
        var env = base
        env[activationTokenKey] = nil
        env[startupIDKey] = nil
        if let activationToken, !activationToken.isEmpty {
            env[activationTokenKey] = activationToken
            env[startupIDKey] = activationToken
        } else if let startupID, !startupID.isEmpty {
            env[startupIDKey] = startupID
        }
        return env
    }

    /// A unique X11 startup id for launching `program` on a user action at X server time `timestamp`, as GLib makes
    /// them: `engram-PID-HOST-PROGRAM-SEQUENCE_TIMEtimestamp`. Nil for timestamp 0, which means "unknown".
    public static func startupID(program: String, timestamp: UInt32) -> String? {
        guard timestamp != 0 else { return nil }
        let hostname = HostName.current ?? "localhost"
        let name = (program as NSString).lastPathComponent
        let n = sequence.add(1, ordering: .relaxed).newValue
        return "engram-\(getpid())-\(safe(hostname))-\(safe(name))-\(n)_TIME\(timestamp)"
    }

    private static let sequence = Atomic<UInt64>(0)

    /// Letters, digits, `.`, `_` and `-` kept, anything else as `_`: the id is one word of printable ASCII.
    private static func safe(_ text: String) -> String {
        let kept = String(text.unicodeScalars.prefix(64).map { s -> Character in
            s.isASCII && (s.properties.isAlphabetic || ("0"..."9").contains(s) || s == "." || s == "_" || s == "-") ? Character(s) : "_"
        })
        return kept.isEmpty ? "_" : kept
    }
}
