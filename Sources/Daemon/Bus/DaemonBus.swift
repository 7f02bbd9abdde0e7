import DBus

/// The names the daemon uses on the session bus.
public enum DaemonBus {
    /// The well-known name the daemon owns, also the D-Bus activation name.
    public static let name = "org.engram.Engram"
    /// The interface the CLI and scripts call: capture, intents, sync and rebuild.
    public static let appInterface = "org.engram.Engram1"
    /// The object serving `org.engram.Engram1`.
    public static let appPath: DBusObjectPath = "/org/engram/Engram"
    /// The object serving `org.gnome.Shell.SearchProvider2`.
    public static let searchProviderPath: DBusObjectPath = "/org/engram/Engram/SearchProvider"
    /// The object serving `org.kde.krunner1`.
    public static let runnerPath: DBusObjectPath = "/runner"
    /// The prefix of the daemon's own error names, such as `org.engram.Engram.Error.NotFound`.
    public static let errorPrefix = "org.engram.Engram.Error."
}
